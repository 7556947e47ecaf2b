;;; taskls-remind.el --- Reminders that fire, shown the Emacs way -*- lexical-binding: t; -*-

;; Copyright (C) 2026 The taskls authors

;; This file is part of taskls.  See taskls.el for the package's headers.

;;; Commentary:

;; The server fires a task's alerts (`reminder/fired', once across every
;; process on the store) to a client that watches them; the client asks
;; when the server starts (`taskls-reminders').  Each is said in the echo
;; area (`taskls: reminder: "Call Ann", due today 10:00', ` (late)'
;; after it when it fired late), and shown as a desktop notification
;; with Done, Snooze 10 min and Dismiss when `notifications-notify' has
;; a D-Bus session to show it on.  `M-x taskls-reminders' lists the
;; pending ones (`reminders/list') in a buffer whose keys snooze,
;; dismiss or complete them; `taskls-snooze-reminder' and
;; `taskls-dismiss-reminder' pick one from the list.

;;; Code:

(require 'cl-lib)
(require 'subr-x)
(require 'taskls-client)
(require 'taskls-render)

(declare-function notifications-notify "notifications" (&rest params))
(declare-function dbus-get-unique-name "dbus" (bus))
(declare-function dbus-init-bus "dbus" (bus &optional private))
(declare-function taskls-repeat-say-advanced "taskls-repeat" (result))
(declare-function taskls-alert-words "taskls-repeat" (alert due))

(defcustom taskls-reminder-notifications t
  "Non-nil to show reminders as desktop notifications too.
Only when Emacs has D-Bus and a session bus (`notifications-notify');
the echo area says them always."
  :type 'boolean
  :group 'taskls)

(defcustom taskls-reminder-bus :session
  "The D-Bus bus desktop notifications go to: `:session', or an address."
  :type '(choice (const :tag "The session bus" :session) (string :tag "Address"))
  :group 'taskls)

(defcustom taskls-reminder-snooze-minutes 10
  "The minutes a snooze lasts, unless a prefix argument says another."
  :type 'natnum
  :group 'taskls)

(defvar taskls-reminders-fired nil
  "Every `reminder/fired' shown since the package was loaded, newest first.
Each is the notification's params, a plist.")

;;; Words

(defun taskls-reminder--quoted (title)
  "TITLE in double quotes, escaped as stored text is shown."
  (concat "\"" (taskls-displayed (or title "")) "\""))

(defun taskls-reminder-words (reminder)
  "The words of REMINDER (a `reminder/fired' params or a list entry).
`\"Call Ann\", due today 10:00', then ` (late)' when it fired late
\(in the face `warning')."
  (let* ((item (plist-get reminder :item))
         (due (plist-get item :due)))
    (concat (taskls-reminder--quoted (plist-get item :title))
            (if (stringp due)
                (concat ", due " (car (taskls-due-text due (taskls--true-p (plist-get item :done))
                                                       (plist-get item :dueLocal))))
              "")
            (if (taskls--true-p (plist-get reminder :late)) (propertize " (late)" 'face 'warning) ""))))

(defun taskls-reminder--instant (instant)
  "INSTANT (UTC from the server) on the client's clock: `2026-11-25 10:31'."
  (let ((time (and (stringp instant) (ignore-errors (parse-iso8601-time-string instant)))))
    (if time
        (format-time-string "%Y-%m-%d %H:%M" time (or taskls-time-zone (car (current-time-zone time))))
      (taskls-displayed (format "%s" instant)))))

(defun taskls-reminder-label (reminder)
  "A pending REMINDER in a list: its words, its alert, when it fired."
  (let ((item (plist-get reminder :item)))
    (format "%s — %s, fired %s" (taskls-reminder-words reminder)
            (taskls-alert-words (plist-get reminder :alert) (plist-get item :due))
            (taskls-reminder--instant (plist-get reminder :firedAt)))))

;;; Firing

(defun taskls-reminder--desktop-p ()
  "Whether a desktop notification can be shown: D-Bus with a session bus.
The bus is `taskls-reminder-bus'."
  (and taskls-reminder-notifications
       (featurep 'dbusbind)
       (require 'notifications nil t)
       (ignore-errors
         (when (stringp taskls-reminder-bus) (dbus-init-bus taskls-reminder-bus))
         (dbus-get-unique-name taskls-reminder-bus))
       t))

(defun taskls-reminder--notify (reminder words)
  "Show REMINDER, said in WORDS, as a desktop notification.
Its actions are Done, Snooze and Dismiss."
  (taskls--guard
    (notifications-notify
     :bus taskls-reminder-bus
     :title "taskls reminder"
     :body words
     :urgency 'normal
     :actions (list "done" "Done"
                    "snooze" (format "Snooze %d min" taskls-reminder-snooze-minutes)
                    "dismiss" "Dismiss")
     :on-action (taskls-reminder--on-action reminder))))

(defun taskls-reminder--on-action (reminder)
  "The action function of a desktop notification of REMINDER."
  (lambda (_id action)
    (taskls--guard
      (pcase action
        ("done" (taskls-reminder-done reminder))
        ("snooze" (taskls-reminder-snooze reminder taskls-reminder-snooze-minutes))
        ("dismiss" (taskls-reminder-dismiss reminder))))))

(defun taskls-reminder--on-fired (params)
  "Show the reminder of PARAMS (a `reminder/fired' notification)."
  (when (plist-get params :item)
    (push params taskls-reminders-fired)
    (let ((words (taskls-reminder-words params)))
      (taskls--say "reminder: %s" words)
      ;; A D-Bus call waits for its answer: not in the process filter
      ;; that reads the server, but right after it.
      (when (taskls-reminder--desktop-p)
        (run-at-time 0 nil #'taskls-reminder--notify params words)))
    (taskls-reminders--refresh-buffer)))

(add-hook 'taskls-reminder-functions #'taskls-reminder--on-fired)

;;; What can be done with one

(defun taskls-reminder--after ()
  "Refresh the reminders buffer once a reminder was handled."
  (taskls-reminders--refresh-buffer))

(defun taskls-reminder-snooze (reminder minutes)
  "Snooze REMINDER for MINUTES: it fires again then, once across processes."
  (taskls-request "reminders/snooze"
                  (list :item (plist-get (plist-get reminder :item) :id)
                        :fireAt (plist-get reminder :fireAt) :minutes minutes)
                  (lambda (_result)
                    (taskls--say "snoozed %s for %d minute%s"
                                 (taskls-reminder--quoted (plist-get (plist-get reminder :item) :title))
                                 minutes (if (= minutes 1) "" "s"))
                    (taskls-reminder--after))))

(defun taskls-reminder-dismiss (reminder)
  "Dismiss REMINDER: it never fires again and is off the list."
  (taskls-request "reminders/dismiss"
                  (list :item (plist-get (plist-get reminder :item) :id)
                        :fireAt (plist-get reminder :fireAt))
                  (lambda (_result)
                    (taskls--say "dismissed the reminder of %s"
                                 (taskls-reminder--quoted (plist-get (plist-get reminder :item) :title)))
                    (taskls-reminder--after))))

(defun taskls-reminder-done (reminder)
  "Mark the task of REMINDER done, which dismisses its reminders.
A repeating task moves on to its next due instead (said in one line)
and this reminder is dismissed, the occurrence being done."
  (let ((item (plist-get reminder :item)))
    (taskls-request "items/update" (list :id (plist-get item :id) :done t)
                    (lambda (result)
                      (if (append (plist-get result :advanced) nil)
                          (progn (taskls-repeat-say-advanced result)
                                 (taskls-request "reminders/dismiss"
                                                 (list :item (plist-get item :id)
                                                       :fireAt (plist-get reminder :fireAt))
                                                 (lambda (_) (taskls-reminder--after))
                                                 (lambda (_) t)))
                        (taskls--say "done: %s" (taskls-reminder--quoted (plist-get item :title)))
                        (taskls-reminder--after))))))

;;; The pending reminders

(defun taskls-reminders-pending ()
  "The reminders fired and not dismissed nor snoozed (`reminders/list')."
  (append (plist-get (taskls-call "reminders/list" nil) :reminders) nil))

(defun taskls-reminder--pick (prompt)
  "The reminder at point in the reminders buffer, else one picked with PROMPT.
Signal `user-error' when none is pending."
  (or (and (derived-mode-p 'taskls-reminders-mode)
           (get-text-property (line-beginning-position) 'taskls-reminder))
      (let ((pending (taskls-reminders-pending)))
        (unless pending (user-error "No reminders pending"))
        (let* ((labels (mapcar (lambda (reminder) (cons (taskls-reminder-label reminder) reminder))
                               pending))
               (choice (completing-read prompt (mapcar #'car labels) nil t)))
          (or (cdr (assoc choice labels)) (user-error "No such reminder"))))))

(defun taskls-snooze-reminder (&optional minutes)
  "Snooze a pending reminder (the one at point, else picked from the list).
For `taskls-reminder-snooze-minutes', or MINUTES (the prefix argument)."
  (interactive (list (and current-prefix-arg (prefix-numeric-value current-prefix-arg))))
  (let ((minutes (or minutes taskls-reminder-snooze-minutes)))
    (unless (and (integerp minutes) (<= 1 minutes 527040))
      (user-error "Snooze for 1 to 527040 minutes, not %s" minutes))
    (taskls-reminder-snooze (taskls-reminder--pick "Snooze: ") minutes)))

(defun taskls-dismiss-reminder ()
  "Dismiss a pending reminder (the one at point, else picked from the list)."
  (interactive)
  (taskls-reminder-dismiss (taskls-reminder--pick "Dismiss: ")))

(defun taskls-complete-reminder ()
  "Mark the task of a pending reminder done (at point, else picked)."
  (interactive)
  (taskls-reminder-done (taskls-reminder--pick "Done: ")))

(defvar taskls-reminders-mode-map
  (let ((map (make-sparse-keymap)))
    (set-keymap-parent map special-mode-map)
    (define-key map (kbd "n") #'next-line)
    (define-key map (kbd "p") #'previous-line)
    (define-key map (kbd "z") #'taskls-snooze-reminder)
    (define-key map (kbd "d") #'taskls-dismiss-reminder)
    (define-key map (kbd "k") #'taskls-dismiss-reminder)
    (define-key map (kbd "x") #'taskls-complete-reminder)
    (define-key map (kbd "g") #'taskls-reminders-refresh)
    (define-key map (kbd "q") #'quit-window)
    map)
  "Keys of `taskls-reminders-mode'.  Change them with `define-key'.")

(define-derived-mode taskls-reminders-mode special-mode "Reminders"
  "The reminders fired and not yet dismissed nor snoozed.
\\[taskls-snooze-reminder] snoozes the one at point (a prefix argument
gives the minutes), \\[taskls-dismiss-reminder] dismisses it,
\\[taskls-complete-reminder] marks its task done.

\\{taskls-reminders-mode-map}"
  (buffer-disable-undo)
  (setq truncate-lines t)
  (setq-local revert-buffer-function (lambda (&rest _) (taskls-reminders-refresh))))

(defconst taskls-reminders-buffer-name "*taskls reminders*"
  "The name of the buffer of pending reminders.")

(defun taskls-reminders--render (reminders)
  "Show REMINDERS (`reminders/list' entries) in the current buffer."
  (let ((inhibit-read-only t)
        (line (line-number-at-pos)))
    (erase-buffer)
    (if (null reminders)
        (insert (propertize "No reminders pending" 'face 'taskls-state) "\n")
      (dolist (reminder reminders)
        (insert (propertize (concat "  " (taskls-reminder-label reminder))
                            'taskls-reminder reminder)
                "\n")))
    (goto-char (point-min))
    (forward-line (1- line))))

(defun taskls-reminders-refresh ()
  "Ask the server for the pending reminders again."
  (interactive)
  (let ((buffer (current-buffer)))
    (taskls-request "reminders/list" nil
                    (lambda (result)
                      (when (buffer-live-p buffer)
                        (with-current-buffer buffer
                          (taskls-reminders--render (append (plist-get result :reminders) nil))))))))

(defun taskls-reminders--refresh-buffer ()
  "Refresh the reminders buffer when it is open."
  (let ((buffer (get-buffer taskls-reminders-buffer-name)))
    (when (buffer-live-p buffer)
      (with-current-buffer buffer (taskls-reminders-refresh)))))

;;;###autoload
(defun taskls-reminders ()
  "List the reminders fired and not dismissed nor snoozed.
\\<taskls-reminders-mode-map>\\[taskls-snooze-reminder] snoozes one, \\[taskls-dismiss-reminder] dismisses it, \\[taskls-complete-reminder] marks its task done."
  (interactive)
  (let ((buffer (get-buffer-create taskls-reminders-buffer-name)))
    (pop-to-buffer-same-window buffer)
    (unless (derived-mode-p 'taskls-reminders-mode) (taskls-reminders-mode))
    (taskls-reminders-refresh)
    buffer))

(provide 'taskls-remind)
;;; taskls-remind.el ends here
