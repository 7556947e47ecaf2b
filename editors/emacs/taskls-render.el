;;; taskls-render.el --- Rows of a taskls view as text -*- lexical-binding: t; -*-

;; Copyright (C) 2026 The taskls authors

;; This file is part of taskls.  See taskls.el for the package's headers.

;;; Commentary:

;; The text of a row (an item or a section header) with its faces, the
;; line that stands for a view's state, due dates said relative to the
;; client's day ("today", "in 3 days"), and stored text shown with its
;; control characters escaped exactly as the taskls REPL shows them.

;;; Code:

(require 'taskls-client)
(require 'iso8601)
(require 'parse-time)

(defface taskls-header '((t :inherit font-lock-keyword-face))
  "Section headers and the overview's headings."
  :group 'taskls)

(defface taskls-done '((t :inherit shadow))
  "Done tasks."
  :group 'taskls)

(defface taskls-overdue '((t :inherit error))
  "Due dates that have passed (never on a done task)."
  :group 'taskls)

(defface taskls-due-today '((t :inherit warning))
  "Due dates of today."
  :group 'taskls)

(defface taskls-due '((t :inherit font-lock-constant-face))
  "Other due dates."
  :group 'taskls)

(defface taskls-priority '((t :inherit font-lock-warning-face))
  "The priority marks ! !! !!!."
  :group 'taskls)

(defface taskls-tag '((t :inherit font-lock-type-face))
  "Tags."
  :group 'taskls)

(defface taskls-list '((t :inherit font-lock-function-name-face))
  "The list's name, in smart groups."
  :group 'taskls)

(defface taskls-notes '((t :inherit font-lock-comment-face))
  "The mark of a task that has notes."
  :group 'taskls)

(defface taskls-placeholder '((t :inherit shadow))
  "Rows not fetched yet."
  :group 'taskls)

(defface taskls-state '((t :inherit shadow))
  "The line of a state: Loading…, No tasks."
  :group 'taskls)

(defface taskls-error '((t :inherit error))
  "The line of an error."
  :group 'taskls)

(defface taskls-mark '((t :inherit warning))
  "Marked rows."
  :group 'taskls)

(defcustom taskls-placeholder "~"
  "The text of a row not fetched yet."
  :type 'string
  :group 'taskls)

;;; Escaping stored text

(defun taskls--escape-char-p (char)
  "Whether CHAR is a control or a bidi override that is shown escaped."
  (or (<= char #x1f)
      (<= #x7f char #x9f)
      (<= #x202a char #x202e)
      (<= #x2066 char #x2069)))

(defun taskls-displayed (text)
  "TEXT with every control character shown as an escape.
ESC is \\e, newline \\n, tab \\t, carriage return \\r, the other C0
and C1 controls, DEL and the bidi overrides and isolates \\u{HEX}.  A
backslash doubles when what follows it reads as an escape, so the
shown text reads back to exactly one stored text.  This is the REPL's
`displayed'."
  (if (not (string-match-p "[\\\0-\37\177-\237\u202a-\u202e\u2066-\u2069]" text))
      text
    (let ((length (length text)) (index 0) parts)
      (while (< index length)
        (let ((char (aref text index))
              (next (and (< (1+ index) length) (aref text (1+ index)))))
          (push (cond ((eq char ?\\)
                       (if (and next (or (memq next '(?\\ ?e ?n ?r ?t ?u))
                                         (taskls--escape-char-p next)))
                           "\\\\" "\\"))
                      ((eq char ?\n) "\\n")
                      ((eq char ?\t) "\\t")
                      ((eq char ?\r) "\\r")
                      ((eq char 27) "\\e")
                      ((taskls--escape-char-p char) (format "\\u{%X}" char))
                      (t (string char)))
                parts))
        (setq index (1+ index)))
      (apply #'concat (nreverse parts)))))

;;; Days

(defun taskls--day-number (date)
  "Days from 1970-01-01 of DATE, a string starting `YYYY-MM-DD', or nil."
  (when (and (stringp date)
             (string-match "\\`\\([0-9]\\{4\\}\\)-\\([0-9][0-9]\\)-\\([0-9][0-9]\\)" date))
    (let* ((year (string-to-number (match-string 1 date)))
           (month (string-to-number (match-string 2 date)))
           (day (string-to-number (match-string 3 date))))
      (when (<= month 2) (setq year (1- year) month (+ month 12)))
      (+ (* 365 year) (floor year 4) (- (floor year 100)) (floor year 400)
         (floor (+ (* 153 (- month 3)) 2) 5) day -719469))))

(defun taskls--relative-day (days date)
  "DATE said relative to today, DAYS from it: \"today\", \"in 3 days\"..."
  (cond ((= days 0) "today")
        ((= days 1) "tomorrow")
        ((= days -1) "yesterday")
        ((<= 2 days 13) (format "in %d days" days))
        ((<= -13 days -2) (format "%d days ago" (- days)))
        (t date)))

(defun taskls--instant-parts (due)
  "The local day (`YYYY-MM-DD') and time (`HH:MM') of the instant DUE.
Local is `taskls-time-zone', else the machine's zone.  Nil when DUE is
not an instant."
  (when (string-match-p "T" due)
    (let ((time (ignore-errors (parse-iso8601-time-string due))))
      (when time
        (let ((zone (or taskls-time-zone (current-time-zone))))
          (when (consp zone) (setq zone (car zone)))
          (list (format-time-string "%Y-%m-%d" time zone)
                (format-time-string "%H:%M" time zone)
                time))))))

(defun taskls--passed-today-p (time)
  "Whether TIME, on the client's day, has passed.
The editor's clock is asked only when it agrees with the server on
the day (a server on a manual clock, or in another zone, decides
alone: a time earlier today is then not shown overdue)."
  (let* ((now (current-time))
         (zone (or taskls-time-zone (car (current-time-zone now)))))
    (and (equal (format-time-string "%Y-%m-%d" now zone) (taskls-today))
         (time-less-p time now))))

(defun taskls-due-text (due done)
  "DUE said relative to the client's day, and its face, as a cons.
DONE non-nil: the task is done and never shown overdue.  A day-only
due reads \"tomorrow\"; an instant reads \"tomorrow 09:30\"."
  (let* ((today (taskls--day-number (taskls-today)))
         (instant (taskls--instant-parts due))
         (date (if instant (car instant) (substring due 0 (min 10 (length due)))))
         (day (taskls--day-number date)))
    (if (not (and today day))
        (cons due 'taskls-due)
      (let* ((delta (- day today))
             (text (concat (taskls--relative-day delta date)
                           (if instant (concat " " (nth 1 instant)) "")))
             (overdue (and (not done)
                           (or (< delta 0)
                               (and instant (= delta 0)
                                    (taskls--passed-today-p (nth 2 instant)))))))
        (cons text (cond (done 'taskls-due)
                         (overdue 'taskls-overdue)
                         ((= delta 0) 'taskls-due-today)
                         (t 'taskls-due)))))))

;;; Rows

(defconst taskls--priority-marks
  '(("low" . "!") ("medium" . "!!") ("high" . "!!!"))
  "The marks of the priorities.")

(defun taskls--face (text face)
  "TEXT with FACE."
  (propertize text 'face face))

(defun taskls-row-text (row &optional show-list marked)
  "The line of ROW (a row plist), without its newline, with faces.
SHOW-LIST adds the list's name (smart groups); MARKED starts it with *."
  (let ((kind (plist-get row :kind)))
    (if (equal kind "header")
        (taskls--face (format "%s (%d)" (taskls-displayed (or (plist-get row :title) ""))
                              (or (plist-get row :count) 0))
                      'taskls-header)
      (let* ((done (taskls--true-p (plist-get row :done)))
             (parts (list (if marked (taskls--face "*" 'taskls-mark) " ")
                          " "
                          (if done "[x]" "[ ]")
                          " "
                          (taskls--face (taskls-displayed (or (plist-get row :title) ""))
                                        (if done 'taskls-done (if marked 'taskls-mark nil)))))
             (due (plist-get row :due))
             (priority (cdr (assoc (plist-get row :priority) taskls--priority-marks)))
             (tags (append (plist-get row :tags) nil)))
        (when (taskls--true-p (plist-get row :hasNotes))
          (setq parts (append parts (list "  " (taskls--face "+" 'taskls-notes)))))
        (when due
          (let ((said (taskls-due-text due done)))
            (setq parts (append parts (list "  " (taskls--face (car said) (cdr said)))))))
        (when priority
          (setq parts (append parts (list "  " (taskls--face priority 'taskls-priority)))))
        (when tags
          (setq parts (append parts
                              (list "  " (taskls--face
                                          (mapconcat (lambda (tag) (concat "#" (taskls-displayed tag)))
                                                     tags " ")
                                          'taskls-tag)))))
        (when show-list
          (let ((name (taskls-list-name (plist-get row :list))))
            (when name
              (setq parts (append parts (list "  " (taskls--face
                                                    (concat "(" (taskls-displayed name) ")")
                                                    'taskls-list)))))))
        (apply #'concat parts)))))

(defun taskls-placeholder-text ()
  "The line of a row not fetched yet."
  (concat "  " (taskls--face taskls-placeholder 'taskls-placeholder)))

(provide 'taskls-render)
;;; taskls-render.el ends here
