;;; taskls-repeat.el --- Repeating tasks in the list buffer -*- lexical-binding: t; -*-

;; Copyright (C) 2026 The taskls authors

;; This file is part of taskls.  See taskls.el for the package's headers.

;;; Commentary:

;; Repeating tasks: completing one moves it on to its next due (the
;; `items/update' result's `advanced'), said in one line; `X' skips the
;; occurrence (`items/skip'); `R' sets a repeat from the quick-entry
;; words (`every week', `every month on the last fri', `every 3 days
;; after done', `+1w') or stops it (`off'); `taskls-stop-repeating'
;; stops it.  The repeat is said in the server's words (`repeat.text'),
;; the history from `occurrences', the alerts in words, for the task in
;; full (RET).  Refusals are said in words.

;;; Code:

(require 'cl-lib)
(require 'subr-x)
(require 'taskls-client)
(require 'taskls-render)
(require 'taskls-list)

(define-key taskls-list-mode-map (kbd "X") #'taskls-skip)
(define-key taskls-list-mode-map (kbd "R") #'taskls-set-repeat)

;;; Words

(defun taskls-repeat--quoted (title)
  "TITLE in double quotes, escaped as stored text is shown."
  (concat "\"" (taskls-displayed (or title "")) "\""))

(defun taskls-repeat--named (items)
  "The titles of ITEMS (plists) for a message: \"A\", or \"A\", \"B\"."
  (mapconcat (lambda (item) (taskls-repeat--quoted (plist-get item :title))) items ", "))

(defun taskls-repeat-text (item)
  "The repeat of ITEM (an item or a row) in the server's words, or nil.
As the server says it (`repeat.text': \"every month on the 1st\"),
escaped as stored text is."
  (let ((repeat (plist-get item :repeat)))
    (and repeat (taskls-displayed (or (plist-get repeat :text) (plist-get repeat :rule) "")))))

(defun taskls-repeat--due-words (item)
  "The due of ITEM in the pane's words: \"in 6 days\", \"2027-01-01\"."
  (let ((due (plist-get item :due)))
    (if (stringp due) (car (taskls-due-text due nil (plist-get item :dueLocal))) "none")))

(defun taskls-repeat-advanced-line (item)
  "The line saying ITEM moved on to its next due instead of becoming done.
`\"Pay rent\" repeats (every month on the 1st): next due in 6 days'."
  (format "%s repeats (%s): next due %s" (taskls-repeat--quoted (plist-get item :title))
          (or (taskls-repeat-text item) "") (taskls-repeat--due-words item)))

(defun taskls-repeat-say-advanced (result)
  "Say which tasks of an `items/update' RESULT moved on (its `advanced').
One line, the tasks' lines joined by \"; \"; nothing when none did."
  (let* ((advanced (append (plist-get result :advanced) nil))
         (items (cl-remove-if-not (lambda (item) (member (plist-get item :id) advanced))
                                  (append (plist-get result :items) nil))))
    (when items
      (taskls--say "%s" (mapconcat #'taskls-repeat-advanced-line items "; ")))))

(defun taskls-repeat--day (instant)
  "The day of INSTANT (a UTC time from the server) in the client's zone.
`taskls-time-zone', else the machine's zone; INSTANT as it is when it
cannot be read."
  (let ((time (ignore-errors (parse-iso8601-time-string instant))))
    (if time
        (format-time-string "%Y-%m-%d" time (or taskls-time-zone (car (current-time-zone time))))
      (taskls-displayed (format "%s" instant)))))

(defun taskls-repeat-history (item)
  "The history of the repeating ITEM in words, or nil when it has none.
`3 done, 1 skipped; last done 2026-11-20' (the day of the latest
occurrence, on the client's day)."
  (let* ((occurrences (plist-get item :occurrences))
         (completed (or (plist-get occurrences :completed) 0))
         (skipped (or (plist-get occurrences :skipped) 0))
         (last (car (last (append (plist-get occurrences :recent) nil)))))
    (when (> (+ completed skipped) 0)
      (concat (format "%d done, %d skipped" completed skipped)
              (if last
                  (format "; last %s %s" (if (equal (plist-get last :outcome) "skipped") "skipped" "done")
                          (taskls-repeat--day (plist-get last :at)))
                "")))))

(defun taskls-repeat--plural (count word)
  "COUNT and WORD, WORD with an s unless COUNT is 1."
  (format "%d %s%s" count word (if (= count 1) "" "s")))

(defun taskls-alert-words (alert due)
  "ALERT (a plist) in words, relative to DUE, the due of its task.
`{\"offset\": -60}' on a due time is \"1 hour before\"; `540' on a due
day \"on the day at 09:00\", `-360' \"the day before at 18:00\";
`{\"at\": …}' \"at 2026-11-22 08:30\" (on the client's clock)."
  (let ((at (plist-get alert :at))
        (offset (plist-get alert :offset)))
    (cond
     (at (let ((time (ignore-errors (parse-iso8601-time-string at))))
           (concat "at " (if time
                             (format-time-string "%Y-%m-%d %H:%M" time
                                                 (or taskls-time-zone (car (current-time-zone time))))
                           (taskls-displayed at)))))
     ((not (numberp offset)) "?")
     ((and (stringp due) (not (string-match-p "T" due)))
      (let* ((days (floor offset 1440))
             (minutes (- offset (* days 1440)))
             (clock (format "%02d:%02d" (/ minutes 60) (% minutes 60))))
        (pcase days
          (0 (concat "on the day at " clock))
          (-1 (concat "the day before at " clock))
          (1 (concat "the day after at " clock))
          (_ (format "%d days %s at %s" (abs days) (if (< days 0) "before" "after") clock)))))
     ((= offset 0) "at the due")
     (t (let* ((size (abs offset))
               (parts (delq nil (list (and (>= size 1440) (taskls-repeat--plural (/ size 1440) "day"))
                                      (and (>= (% size 1440) 60)
                                           (taskls-repeat--plural (/ (% size 1440) 60) "hour"))
                                      (and (> (% size 60) 0) (taskls-repeat--plural (% size 60) "minute"))))))
          (concat (mapconcat #'identity parts " ") (if (< offset 0) " before" " after")))))))

(defun taskls-repeat-describe (item)
  "The lines about repeating and alerts of ITEM in full: ((NAME . TEXT) ...).
Repeats (the server's words), History, Alerts; those it has."
  (let ((alerts (append (plist-get item :alerts) nil)))
    (delq nil (list (let ((text (taskls-repeat-text item))) (and text (cons "Repeats" text)))
                    (let ((text (taskls-repeat-history item))) (and text (cons "History" text)))
                    (and alerts
                         (cons "Alerts" (mapconcat (lambda (alert) (taskls-alert-words alert (plist-get item :due)))
                                                   alerts ", ")))))))

(defun taskls-repeat-refusal (err rows)
  "A refusal ERR of skip or of a repeat in words, or nil for another refusal.
It names the tasks of ROWS the server named (`data.ids'), else all of
them: `notRepeating', `repeatEnded', `repeatWithoutDue'."
  (let* ((data (plist-get err :data))
         (ids (and (listp data) (append (plist-get data :ids) nil)))
         (named (or (cl-remove-if-not (lambda (row) (member (plist-get row :id) ids)) rows) rows))
         (one (= (length named) 1)))
    (pcase (taskls--error-reason err)
      ("notRepeating"
       (format "%s %s not repeat: give %s a repeat first (R, then every week)"
               (taskls-repeat--named named) (if one "does" "do") (if one "it" "them")))
      ("repeatEnded"
       (format "the repeat of %s has ended: there is no next due to skip to; x marks it done"
               (taskls-repeat--named named)))
      ("repeatWithoutDue"
       (format "a repeating task needs a due: give %s one first (d), or both at once (R, then ^mon every week)"
               (taskls-repeat--named named))))))

(defun taskls-repeat--on-refusal (rows)
  "An ERROR function for `taskls-request' saying refusals about ROWS in words."
  (lambda (err)
    (let ((words (taskls-repeat-refusal err rows)))
      (when words (taskls--say "%s" words) t))))

;;; Commands

(defun taskls-skip ()
  "Skip the current occurrence of the repeating tasks: on to their next due.
They are not done; one line says where each went: skipped \"Water
plants\": next due in 3 days.  A task that does not repeat, or whose
repeat has ended, is refused in words and nothing changes."
  (interactive)
  (let ((rows (taskls-list--target-rows))
        (buffer (current-buffer)))
    (taskls-request "items/skip" (list :ids (taskls-list--ids rows))
                    (lambda (result)
                      (when (buffer-live-p buffer)
                        (with-current-buffer buffer (taskls-list--forget-marks)))
                      (taskls--say "%s" (mapconcat
                                         (lambda (item)
                                           (format "skipped %s: next due %s"
                                                   (taskls-repeat--quoted (plist-get item :title))
                                                   (taskls-repeat--due-words item)))
                                         (append (plist-get result :items) nil) "; ")))
                    (taskls-repeat--on-refusal rows))))

(defun taskls-repeat--off-p (text)
  "Whether TEXT asks to stop repeating: off, none, never or -."
  (member (downcase (string-trim text)) '("off" "none" "never" "-")))

(defun taskls-stop-repeating ()
  "Stop the tasks repeating (`repeat: null'); they keep their due and history."
  (interactive)
  (let ((rows (taskls-list--target-rows)))
    (taskls-list--update rows (list :repeat nil)
                         (lambda (_result)
                           (taskls--say "no longer repeating: %s" (taskls-repeat--named rows)))
                         (taskls-repeat--on-refusal rows))))

(defun taskls-repeat--parse (text)
  "TEXT read as a repeat by the server: (FIELDS . nil) or (nil . PROBLEM)."
  (condition-case err
      (let* ((answer (taskls-call "text/parseItem" (list :text text)))
             (problem (taskls-list--parse-problem answer))
             (fields (plist-get answer :fields)))
        (cond (problem (cons nil problem))
              ((or (null (plist-get fields :repeat)) (plist-get fields :title))
               (cons nil (format "%s is not a repeat: try every week, every mon,wed, every month on the last fri, every 3 days after done, or off"
                                 (taskls-displayed (string-trim text)))))
              (t (cons fields nil))))
    (user-error (cons nil (error-message-string err)))))

(defun taskls-repeat--apply (rows fields)
  "Give ROWS the repeat of FIELDS; return nil, or the refusal in words.
A task with a due keeps it; one without takes the rule's first day
\(the due of FIELDS) with it: one request each way."
  (let* ((dated (cl-remove-if-not (lambda (row) (plist-get row :due)) rows))
         (undated (cl-remove-if (lambda (row) (plist-get row :due)) rows))
         (repeat (plist-get fields :repeat))
         (problem nil))
    (cl-flet ((send (targets params)
                (when (and targets (not problem))
                  (condition-case err
                      (taskls-call "items/update" (append (list :ids (taskls-list--ids targets)) params))
                    (user-error (setq problem (error-message-string err)))))))
      (send dated (list :repeat repeat))
      (send undated (list :repeat repeat :due (plist-get fields :due))))
    problem))

(defun taskls-set-repeat ()
  "Set the repeat of the tasks from words, or stop it with `off'.
`every week', `every mon,wed', `every month on the last fri', `every 3
days after done', `+1w': read by the server, as in quick entry.  A
task without a due gets the repeat's first day as its due.  Words that
are no repeat bring the prompt back with them and what was wrong."
  (interactive)
  (let* ((rows (taskls-list--target-rows))
         (current (and (= (length rows) 1) (taskls-repeat-text (car rows))))
         (hint (concat (if current (concat "now " current "; ") "")
                       "every week, every mon,wed, every 3 days after done; off stops it"))
         (text nil) (problem nil) (done nil))
    (while (not done)
      (setq text (read-string (taskls-list--prompt "Repeat" hint problem) text))
      (cond ((string-blank-p text) (setq done t))
            ((taskls-repeat--off-p text) (taskls-stop-repeating) (setq done t))
            (t (let ((read (taskls-repeat--parse text)))
                 (setq problem (or (cdr read) (taskls-repeat--apply rows (car read))))
                 (unless problem
                   (taskls-list--forget-marks)
                   (taskls--say "repeats %s: %s" (taskls-displayed (plist-get (plist-get (car read) :repeat) :text))
                                (taskls-repeat--named rows))
                   (setq done t))))))))

(provide 'taskls-repeat)
;;; taskls-repeat.el ends here
