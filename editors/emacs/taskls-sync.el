;;; taskls-sync.el --- Sync with CalDAV calendars: each list's state, sync now -*- lexical-binding: t; -*-

;; Copyright (C) 2026 The taskls authors

;; This file is part of taskls.  See taskls.el for the package's headers.

;;; Commentary:

;; A list shared with a CalDAV calendar (`taskls sync share') shows its
;; sync state in the overview after its counts, in the words of the
;; REPL and the other editors: "synced 2026-11-26 10:04 UTC",
;; "syncing…", "offline, 2 waiting", "sync error", or "sync waits for
;; C-u M-x taskls-sync" (a side looks suddenly empty); the line below
;; says why, the lines after it what the last sync reported.  The
;; overview's `sync' member carries the states and updates by itself.
;; `S' in the overview and M-x taskls-sync sync now (`sync/now'; with a
;; prefix argument, confirmed) and say how each list went.

;;; Code:

(require 'cl-lib)
(require 'subr-x)
(require 'taskls-client)
(require 'taskls-render)

(defun taskls-sync-words (state)
  "STATE, a list's sync state (a plist), in a few words with its face.
Return (WORDS . FACE): \"synced 2026-11-26 10:04 UTC\", \"syncing…\",
\"offline, 2 waiting\", \"sync error\" or \"sync waits for
\\[universal-argument] \\[taskls-sync]\"; nil when STATE is nil (a list that is not
shared)."
  (when state
    (pcase (plist-get state :state)
      ("synced"
       (let ((at (plist-get state :syncedAt)))
         (cons (if (stringp at)
                   (format "synced %s UTC" (string-replace "T" " " (substring at 0 (min 16 (length at)))))
                 "synced")
               'taskls-state)))
      ("syncing" (let* ((progress (plist-get state :progress))
                        (total (and (listp progress) (plist-get progress :total)))
                        (sent (and (listp progress) (plist-get progress :sent))))
                   (cons (if (numberp total)
                             (format "syncing, %d of %d sent" (if (numberp sent) sent 0) total)
                           "syncing…")
                         'taskls-state)))
      ("offline" (let ((waiting (plist-get state :waiting)))
                   (cons (format "offline, %d waiting" (if (numberp waiting) waiting 0)) 'taskls-warning)))
      ("confirm" (cons "sync waits for C-u M-x taskls-sync" 'taskls-warning))
      (_ (cons "sync error" 'taskls-error)))))

(defun taskls-sync-states (overview)
  "The sync states of OVERVIEW by list id, a hash table (empty when none)."
  (let ((states (make-hash-table :test #'equal)))
    (cl-loop for state across (or (plist-get overview :sync) [])
             when (stringp (plist-get state :list))
             do (puthash (plist-get state :list) state states))
    states))

(defun taskls-sync-lines (state)
  "The lines under a list whose sync state is STATE, each (TEXT . FACE).
Why the list is offline, in error or waiting for a confirmed sync, then
what the last sync reported (its notices)."
  (let ((message (plist-get state :message))
        (lines nil))
    (when (and (stringp message) (not (string-empty-p message))
               (not (member (plist-get state :state) '("synced" "syncing"))))
      (push (cons (concat "    " (taskls-displayed message)) (cdr (taskls-sync-words state))) lines))
    (cl-loop for notice across (or (plist-get state :notices) [])
             do (push (cons (concat "    " (taskls-displayed (format "%s" notice))) 'taskls-state) lines))
    (nreverse lines)))

(defun taskls-sync--told (result)
  "How each list of RESULT (a `sync/now' answer) went, one line."
  (let ((told (cl-loop for synced across (or (plist-get result :lists) [])
                       for state = (plist-get synced :sync)
                       collect (concat (or (taskls-list-name (plist-get state :list))
                                           (format "%s" (plist-get state :list)))
                                       ": " (car (taskls-sync-words state))
                                       (if (equal (plist-get state :state) "synced")
                                           (format " (%d sent, %d received)"
                                                   (or (plist-get synced :sent) 0)
                                                   (or (plist-get synced :received) 0))
                                         "")))))
    (taskls-displayed (if told (string-join told "; ") "no list is shared"))))

;;;###autoload
(defun taskls-sync (&optional confirm)
  "Sync the lists shared with CalDAV calendars now, and say how each went.
With a prefix argument CONFIRM, also mirror a side that looks suddenly
empty (a list whose state says \"sync waits for \\[universal-argument] \\[taskls-sync]\").
A refusal (no account yet, no sync program) is said with its reason."
  (interactive "P")
  (taskls--say "%s" (if confirm "syncing (confirmed)…" "syncing…"))
  (taskls-request "sync/now" (taskls--object :confirm (and confirm t))
                  (lambda (result) (taskls--say "%s" (taskls-sync--told result)))))

(provide 'taskls-sync)
;;; taskls-sync.el ends here
