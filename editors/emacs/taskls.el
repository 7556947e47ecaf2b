;;; taskls.el --- Task lists kept live by the taskls server -*- lexical-binding: t; -*-

;; Copyright (C) 2026 The taskls authors

;; Author: The taskls authors
;; Version: 0.1.0
;; Package-Requires: ((emacs "28.1") (jsonrpc "1.0.14"))
;; Keywords: calendar, convenience, outlines
;; URL: https://github.com/taskls/taskls

;; This file is not part of GNU Emacs.

;; This program is free software; you can redistribute it and/or modify
;; it under the terms of the GNU General Public License as published by
;; the Free Software Foundation, either version 3 of the License, or
;; (at your option) any later version.

;; This program is distributed in the hope that it will be useful,
;; but WITHOUT ANY WARRANTY; without even the implied warranty of
;; MERCHANTABILITY or FITNESS FOR A PARTICULAR PURPOSE.  See the
;; GNU General Public License for more details.

;; You should have received a copy of the GNU General Public License
;; along with this program.  If not, see <https://www.gnu.org/licenses/>.

;;; Commentary:

;; Task lists in buffers that feel like org-agenda and Dired, kept live
;; by the taskls server (one per Emacs, started on demand).
;;
;; M-x taskls opens the overview: the smart groups (Today, Scheduled,
;; Overdue, All, Completed), your smart lists (saved filters) and your
;; lists, with live counts.  RET opens
;; one in a list buffer: one line per task, due dates relative to today,
;; and keys to add, edit, complete, reorder, mark, sort, filter and
;; group them; subtasks are indented under their task, with org-mode's
;; keys (TAB folds, M-<right> and M-<left> indent and outdent); `u'
;; undoes through the server.  Repeating tasks show ↻ and move on to
;; their next due when done (X skips one); reminders fire in the echo
;; area and as desktop notifications (M-x taskls-reminders lists them).
;; `?' lists every key.
;;
;; Setup (see README.md in this directory for package-vc, use-package,
;; straight and elpaca):
;;
;;   (add-to-list 'load-path "/path/to/taskls/editors/emacs")
;;   (autoload 'taskls "taskls" nil t)
;;   (setq taskls-program "/path/to/taskls")

;;; Code:

(require 'cl-lib)
(require 'subr-x)
(require 'text-property-search)
(require 'taskls-client)
(require 'taskls-render)
(require 'taskls-view)
(require 'taskls-list)
(require 'taskls-tree)
(require 'taskls-repeat)
(require 'taskls-remind)
(require 'taskls-smart)
(require 'taskls-sync)

;;; The overview

(defvar taskls-overview-mode-map
  (let ((map (make-sparse-keymap)))
    (set-keymap-parent map special-mode-map)
    (define-key map (kbd "n") #'taskls-next-line)
    (define-key map (kbd "p") #'taskls-previous-line)
    (define-key map (kbd "RET") #'taskls-overview-open)
    (define-key map (kbd "+") #'taskls-overview-create-list)
    (define-key map (kbd "a") #'taskls-overview-create-list)
    (define-key map (kbd "e") #'taskls-overview-rename-list)
    (define-key map (kbd "k") #'taskls-overview-delete-list)
    (define-key map (kbd "D") #'taskls-overview-delete-list)
    (define-key map (kbd "u") #'taskls-undo)
    (define-key map [remap undo] #'taskls-undo)
    (define-key map (kbd "r") #'taskls-redo)
    (define-key map [remap undo-redo] #'taskls-redo)
    (define-key map (kbd "g") #'taskls-overview-refresh)
    (define-key map (kbd "S") #'taskls-sync)
    (define-key map (kbd "q") #'quit-window)
    (define-key map (kbd "?") #'taskls-help)
    (define-key map (kbd "h") #'taskls-help)
    map)
  "Keys of `taskls-overview-mode'.  Change them with `define-key'.")

(define-derived-mode taskls-overview-mode special-mode "Tasks overview"
  "The smart groups, your smart lists and your lists, with live counts.
\\[taskls-overview-open] opens the one at point; \\[taskls-help] lists every key.
A list shared with a CalDAV calendar shows its sync state after its
counts; \\[taskls-sync] syncs now (with a prefix argument, confirmed).

\\{taskls-overview-mode-map}"
  (buffer-disable-undo)
  (setq truncate-lines t)
  (setq-local revert-buffer-function (lambda (&rest _) (taskls-overview-refresh)))
  (add-hook 'taskls-overview-functions #'taskls-overview--render))

(defconst taskls-overview-buffer-name "*taskls*"
  "The name of the overview buffer.")

(defun taskls-overview--lines (overview)
  "Return the lines of OVERVIEW; a `taskls-entry' property names what to open."
  (let ((store (plist-get overview :store))
        (lists (append (plist-get overview :lists) nil))
        (syncs (taskls-sync-states overview))
        lines)
    (cl-flet ((add (text &optional entry face)
                (setq text (if face (propertize text 'face face) text))
                (push (if entry (propertize text 'taskls-entry entry) text) lines)))
      (pcase (plist-get store :state)
        ("loading" (add (format "Loading… %d%%" (round (* 100 (or (plist-get store :progress) 0))))
                        nil 'taskls-state))
        ("error" (add (format "Error: %s — press g to retry"
                              (taskls-displayed (or (plist-get store :message)
                                                    (plist-get (plist-get store :error) :message)
                                                    "the store cannot be opened")))
                      nil 'taskls-error)))
      (add "Smart groups" nil 'taskls-header)
      (dolist (group (append (plist-get overview :groups) nil))
        (add (format "  %-28s %7d" (plist-get group :name) (plist-get group :count))
             (list :group (plist-get group :id) :name (plist-get group :name))))
      (add "")
      (unless store
        (add "Smart lists" nil 'taskls-header)
        (let ((smart-lists (append (plist-get overview :smartLists) nil)))
          (dolist (smart smart-lists)
            (add (format "  %s %7d"
                         (taskls--padded (taskls-truncate (taskls-displayed (plist-get smart :name)) 28) 28)
                         (or (plist-get smart :count) 0))
                 (list :smartList (plist-get smart :id) :name (plist-get smart :name))))
          (unless smart-lists
            (add "  None — in a list buffer, / filters and F saves the filter as one" nil 'taskls-state)))
        (add ""))
      (add "Lists" nil 'taskls-header)
      (dolist (list lists)
        (let* ((name (taskls--padded (taskls-truncate (taskls-displayed (plist-get list :name)) 28) 28))
               (state (gethash (plist-get list :id) syncs))
               (words (taskls-sync-words state)))
          (add (format "  %s %7s%s" name (format "%d/%d" (plist-get list :open) (plist-get list :total))
                       (if words (concat "  " (car words)) ""))
               (list :list (plist-get list :id) :name (plist-get list :name))
               (cdr words))
          ;; Why it is offline, in error or waiting, then what the last sync reported.
          (dolist (line (taskls-sync-lines state))
            (add (car line) nil (cdr line)))))
      (when (and (null lists) (null store))
        (add "  No lists — press + to create one" nil 'taskls-state)))
    (nreverse lines)))

(defun taskls-overview--render (overview)
  "Show OVERVIEW in the overview buffer, keeping point on its entry."
  (let ((buffer (get-buffer taskls-overview-buffer-name)))
    (when (buffer-live-p buffer)
      (with-current-buffer buffer
        (let* ((inhibit-read-only t)
               (line (line-number-at-pos))
               (entry (get-text-property (line-beginning-position) 'taskls-entry))
               (lines (taskls-overview--lines overview))
               (windows (mapcar (lambda (window) (cons window (with-current-buffer buffer
                                                                 (save-excursion
                                                                   (goto-char (window-point window))
                                                                   (line-number-at-pos)))))
                                (get-buffer-window-list buffer nil t))))
          (erase-buffer)
          (insert (mapconcat #'identity lines "\n") "\n")
          (set-buffer-modified-p nil)
          (goto-char (point-min))
          (let ((found (and entry (text-property-search-forward 'taskls-entry entry #'equal))))
            (if found
                (goto-char (prop-match-beginning found))
              (forward-line (1- line))))
          (dolist (window windows)
            (set-window-point (car window) (save-excursion (goto-char (point-min))
                                                     (forward-line (1- (cdr window)))
                                                     (point)))))))))

(defun taskls-overview-refresh ()
  "Ask the server for the overview again; retry a store in error."
  (interactive)
  (let ((store (plist-get taskls--overview :store)))
    (if (and (taskls-running-p) (equal (plist-get store :state) "error"))
        (taskls-request "store/retry" nil (lambda (_) (taskls--watch-overview-now)))
      (taskls--watch-overview-now))))

(defun taskls--watch-overview-now ()
  "Ask for the overview, starting the server if needed."
  (taskls-request "lists/list" (list :watch t) #'taskls--set-overview))

;;;###autoload
(defun taskls ()
  "Open the overview of your task lists."
  (interactive)
  (let ((buffer (get-buffer-create taskls-overview-buffer-name)))
    (pop-to-buffer-same-window buffer)
    (unless (derived-mode-p 'taskls-overview-mode)
      (taskls-overview-mode))
    (if (and taskls--overview (taskls-running-p))
        (taskls-overview--render taskls--overview)
      (let ((inhibit-read-only t))
        (erase-buffer)
        (insert (propertize "Opening…" 'face 'taskls-state) "\n")))
    (taskls-ensure)
    (taskls--watch-overview-now)
    buffer))

(defun taskls-overview ()
  "Show the overview of your task lists."
  (interactive)
  (taskls))

(defun taskls-overview--entry ()
  "What the line at point opens, a plist, or nil."
  (get-text-property (line-beginning-position) 'taskls-entry))

(defun taskls-overview-open ()
  "Open the list, smart group or smart list at point in a list buffer."
  (interactive)
  (taskls-open (or (taskls-overview--entry) (user-error "Nothing to open here"))))

(defun taskls-overview-create-list (name)
  "Create a list called NAME."
  (interactive (list (read-string "New list: ")))
  (unless (string-blank-p name)
    (taskls-request "lists/create" (list :name name))))

(defun taskls-overview-rename-list ()
  "Rename the list or smart list at point."
  (interactive)
  (let ((entry (taskls-overview--entry)))
    (if (plist-get entry :smartList)
        (taskls-smart-rename entry)
      (let* ((id (or (plist-get entry :list) (user-error "No list here")))
             (name (read-string "Name: " (plist-get entry :name))))
        (unless (or (string-blank-p name) (equal name (plist-get entry :name)))
          (taskls-request "lists/update" (list :id id :name name)))))))

(defun taskls-overview-delete-list ()
  "Delete the list at point and its tasks, or the smart list (asking first)."
  (interactive)
  (let ((entry (taskls-overview--entry)))
    (if (plist-get entry :smartList)
        (taskls-smart-delete entry)
      (let ((id (or (plist-get entry :list) (user-error "No list here"))))
        (when (yes-or-no-p (format "Delete the list %s and its tasks? "
                                   (taskls-displayed (plist-get entry :name))))
          (taskls-request "lists/delete" (list :id id)))))))

;;; Help

(defconst taskls-quick-entry-help
  "What you type at a, e and / is read by the server, so every taskls
editor understands the same words.  A word counts by how it starts:

  ^PHRASE or due:PHRASE   due: ^tom, ^fri 5pm, ^+3, ^in 2 weeks, ^dec 1,
                          ^2026-12-24, ^none (no due)
  !, !!, !!!, !high       priority (low, medium, high; !none)
  #tag                    a tag
  @List, @\"Work stuff\"    the list (e: moves the task there)
  every PHRASE, +1w       the repeat: every day, every 2 weeks, every
                          mon,wed, every month on the last fri, every
                          year on dec 25, every 3 days after done (from
                          the day it is done); +1w ++1m .+3d as in Org
  // notes                everything after // is the notes
  \\#42                    a backslash keeps a word as text

  Buy milk ^tomorrow !high #home     due tomorrow, high, tagged home
  Call Ann due:fri 5pm               due Friday at 17:00
  Pay rent ^dec 1 every month on the 1st   repeats monthly from Dec 1
  /#home !high+ due<fri open milk    filter: tag, priority, due, open, text

A warning (^fryday, !urgent, @Nolist) is shown in the prompt and nothing
is saved, however often you press RET: the prompt comes back with what
you typed, to correct it, or to escape a word with \\ (\\^fryday keeps
it as text).  A filter with a warning is not applied.  An empty filter
clears the filter; an empty task line adds nothing."
  "The quick-entry grammar, for the help buffer.")

(defun taskls-help--bindings (map &optional prefix)
  "Return the own bindings of MAP (not its parents'), last first.
Each is (KEY . COMMAND).
Meta keys (an ESC prefix map) read as M-KEY; PREFIX starts every key.
Remappings read as [remap COMMAND]."
  (let (bindings)
    (map-keymap-internal
     (lambda (event binding)
       (cond ((and (eq event 27) (keymapp binding))
              (setq bindings (append (reverse (taskls-help--bindings binding (concat prefix "M-")))
                                     bindings)))
             ((and (eq event 'remap) (keymapp binding))
              (map-keymap-internal
               (lambda (command target)
                 (push (cons (format "[remap %s]" command) target) bindings))
               binding))
             ((and (keymapp binding) (not (eq event 'remap)))
              (setq bindings (append (reverse (taskls-help--bindings
                                               binding
                                               (concat prefix (key-description (vector event)) " ")))
                                     bindings)))
             ((and binding (symbolp binding) (commandp binding))
              (push (cons (concat prefix (key-description (vector event))) binding) bindings))))
     map)
    bindings))

(defun taskls-help--keys (map)
  "The bindings of MAP (not its parents) as (KEYS COMMAND), in definition order."
  (let (commands)
    ;; `map-keymap-internal' walks a sparse keymap from its latest binding.
    (dolist (binding (taskls-help--bindings map))
      (let ((entry (assq (cdr binding) commands)))
        (if entry
            (setcdr entry (append (cdr entry) (list (car binding))))
          (push (list (cdr binding) (car binding)) commands))))
    (mapcar (lambda (entry) (list (mapconcat #'identity (cdr entry) ", ") (car entry)))
            (nreverse commands))))

(defun taskls-help--print-keys (title map)
  "Print TITLE, then every key of MAP with its command and what it does."
  (princ (format "%s\n%s\n" title (make-string (length title) ?=)))
  (dolist (binding (taskls-help--keys map))
    (let ((doc (car (split-string (or (documentation (nth 1 binding) t) "") "\n"))))
      (princ (format "  %-24s %s\n  %-24s %s\n" (car binding) (nth 1 binding) "" doc))))
  (princ "\n"))

(defun taskls-help ()
  "Show every key of the taskls buffers, its command and what it does."
  (interactive)
  (with-help-window "*taskls help*"
    (princ "taskls: task lists kept live by the taskls server\n\n")
    (taskls-help--print-keys "List buffer keys (taskls-list-mode)" taskls-list-mode-map)
    (princ "Also, from special-mode: SPC and S-SPC scroll, < and > go to the ends.\n\n")
    (taskls-help--print-keys "Overview keys (taskls-overview-mode)" taskls-overview-mode-map)
    (taskls-help--print-keys "Notes buffer keys (taskls-notes-mode)" taskls-notes-mode-map)
    (taskls-help--print-keys "Reminders buffer keys (taskls-reminders-mode)" taskls-reminders-mode-map)
    (princ "Commands (M-x)\n==============\n")
    (dolist (command '(taskls taskls-reminders taskls-snooze-reminder taskls-dismiss-reminder
                              taskls-stop-repeating taskls-doctor taskls-events-buffer
                              taskls-restart taskls-stop))
      (princ (format "  %-30s %s\n" command
                     (car (split-string (documentation command t) "\n")))))
    (princ "\nQuick entry\n===========\n")
    (princ taskls-quick-entry-help)
    (princ "\n\nStates shown in place of rows: Loading… 40%, No tasks — press a to add
one, No matches — clear the filter with /, Error: … — press g to retry.
Marks (m) work as in Dired: t, x, d, \",\", :, k, D, M-<right> and M-<left>
act on the marked tasks, else on the region's, else on the task at point.

Subtasks are indented two spaces per level under their task, which shows
a fold marker (▾ shown, ▸ collapsed) and how many of its subtasks are
done (1/3).  TAB collapses or expands them (on a task without subtasks:
its parent's), S-TAB or C-u TAB every task; the server hides the rows,
each buffer on its own.  M-<right> makes a task the last subtask of the
task above it at its level, M-<left> the next sibling of its parent.  A
adds a subtask below the task at point, o a task on the line below (the
first subtask of a task whose subtasks are shown, else its next
sibling), O a task above.  M-p and M-n move a task with its subtasks,
keeping its level where the tasks around its new place allow it.

Repeating tasks show ↻ after their due.  x on one moves it on to its
next due instead of making it done, and says so (\"Pay rent\" repeats
(every month on the 1st): next due in 6 days); X skips the occurrence;
R sets the repeat from words (every week) or stops it (off), as does
M-x taskls-stop-repeating; RET shows the repeat, its history (3 done,
1 skipped; last done 2026-11-20) and the alerts.

Reminders: when a task's alert comes, the echo area says it (taskls:
reminder: \"Call Ann\", due today 10:00, then (late) when it fired
late), and a desktop notification with Done, Snooze and Dismiss shows
it when Emacs has a D-Bus session (taskls-reminder-notifications).
M-x taskls-reminders lists the pending ones: z snoozes (C-u N z for N
minutes), d dismisses, x marks the task done.  taskls-reminders (the
option) off: none are asked for.

Smart lists: F in a list buffer saves its filter as a smart list (the
tasks not done unless the filter says done, over that list, or every
list from a smart group); the overview shows them with live counts
between the smart groups and the lists: RET opens one, e renames it, k
deletes it (its tasks stay).\n")))

(provide 'taskls)
;;; taskls.el ends here
