;;; taskls-list.el --- The taskls list buffer: its mode, keys and commands -*- lexical-binding: t; -*-

;; Copyright (C) 2026 The taskls authors

;; This file is part of taskls.  See taskls.el for the package's headers.

;;; Commentary:

;; `taskls-list-mode', a mode derived from `special-mode' showing one
;; view (see taskls-view.el), and the commands of its keys.  A command
;; reads the rows it acts on (the marked rows, else the region's, else
;; the row at point), sends one request and lets the view's notifications
;; update the buffer.  What a person types (a new task, an edited title,
;; a due date, a filter) is read by the server (`text/parseItem',
;; `text/parseFilter'), so every taskls editor understands the same
;; words; warnings are shown and the prompt comes back with the text.

;;; Code:

(require 'cl-lib)
(require 'subr-x)
(require 'taskls-client)
(require 'taskls-render)
(require 'taskls-view)

(declare-function org-read-date "org" (&optional with-time to-time from-string prompt
                                                 default-time default-input inactive))
(declare-function bookmark-prop-get "bookmark" (bookmark prop))
(declare-function taskls-overview "taskls" ())
(declare-function taskls-help "taskls" ())
(declare-function taskls-repeat-say-advanced "taskls-repeat" (result))
(declare-function taskls-repeat-describe "taskls-repeat" (item))
(declare-function taskls-repeat-text "taskls-repeat" (item))

(defvar taskls-list-mode-map
  (let ((map (make-sparse-keymap)))
    (set-keymap-parent map special-mode-map)
    (define-key map (kbd "n") #'taskls-next-line)
    (define-key map (kbd "p") #'taskls-previous-line)
    (define-key map (kbd "a") #'taskls-add)
    (define-key map (kbd "+") #'taskls-add)
    (define-key map (kbd "t") #'taskls-toggle-done)
    (define-key map (kbd "x") #'taskls-toggle-done)
    (define-key map (kbd "e") #'taskls-edit)
    (define-key map (kbd "d") #'taskls-set-due)
    (define-key map (kbd ",") #'taskls-set-priority)
    (define-key map (kbd ":") #'taskls-set-tags)
    (define-key map (kbd "N") #'taskls-edit-notes)
    (define-key map (kbd "k") #'taskls-delete)
    (define-key map (kbd "D") #'taskls-delete)
    (define-key map (kbd "M-p") #'taskls-move-up)
    (define-key map (kbd "M-<up>") #'taskls-move-up)
    (define-key map (kbd "M-n") #'taskls-move-down)
    (define-key map (kbd "M-<down>") #'taskls-move-down)
    (define-key map (kbd "m") #'taskls-mark)
    (define-key map (kbd "DEL") #'taskls-unmark-backward)
    (define-key map (kbd "U") #'taskls-unmark-all)
    (define-key map (kbd "s") #'taskls-sort)
    (define-key map (kbd "/") #'taskls-filter)
    (define-key map (kbd "S") #'taskls-sections)
    (define-key map (kbd "u") #'taskls-undo)
    (define-key map [remap undo] #'taskls-undo)
    (define-key map (kbd "r") #'taskls-redo)
    (define-key map [remap undo-redo] #'taskls-redo)
    (define-key map (kbd "g") #'taskls-refresh)
    (define-key map (kbd "RET") #'taskls-show-item)
    (define-key map (kbd "^") #'taskls-overview)
    (define-key map (kbd "q") #'taskls-quit)
    (define-key map (kbd "?") #'taskls-help)
    (define-key map (kbd "h") #'taskls-help)
    map)
  "Keys of `taskls-list-mode'.  Change them with `define-key'.")

(define-derived-mode taskls-list-mode special-mode "Tasks"
  "A taskls list: one line per task, kept live by the server.

Every change goes to the server and comes back to every buffer that
shows the list; `u' undoes it through the server.  Commands act on
the marked tasks, else on those of the region, else on the task at
point.  \\[taskls-help] lists every key with what it does.

\\{taskls-list-mode-map}"
  (buffer-disable-undo)
  (setq truncate-lines t
        buffer-read-only t
        taskls-view--marks (make-hash-table :test #'equal))
  (setq-local revert-buffer-function (lambda (&rest _) (taskls-refresh)))
  (setq-local imenu-create-index-function #'taskls-list--imenu-index)
  (setq-local bookmark-make-record-function #'taskls-list--bookmark-record)
  (add-hook 'eldoc-documentation-functions #'taskls-list--eldoc nil t)
  (add-hook 'kill-buffer-hook #'taskls-view-close nil t)
  (add-hook 'post-command-hook #'taskls-view-schedule-check nil t)
  (add-hook 'window-scroll-functions #'taskls-list--on-scroll nil t)
  (add-hook 'window-size-change-functions #'taskls-list--on-scroll nil t)
  (eldoc-mode 1))

(defun taskls-list--on-scroll (&rest _)
  "A window on the buffer scrolled or changed size: check the window soon."
  (taskls-view-schedule-check))

(defun taskls-list-buffers ()
  "Every live list buffer."
  (cl-remove-if-not (lambda (buffer)
                      (eq (buffer-local-value 'major-mode buffer) 'taskls-list-mode))
                    (buffer-list)))

(defun taskls-list--on-server-exit ()
  "Tell every list buffer that the server stopped."
  (dolist (buffer (taskls-list-buffers))
    (with-current-buffer buffer (taskls-view--on-server-exit))))

(defun taskls-list--on-new-day ()
  "Write the rows again: their due dates read relative to the new day."
  (dolist (buffer (taskls-list-buffers))
    (with-current-buffer buffer (taskls-view-rewrite-rows))))

(defun taskls-list--on-server-start ()
  "Open the view of every list buffer again (the server restarted)."
  (dolist (buffer (taskls-list-buffers))
    (with-current-buffer buffer
      (unless taskls-view--closed (taskls-view-open-view)))))

(add-hook 'taskls-server-exit-functions #'taskls-list--on-server-exit)
(add-hook 'taskls-server-start-functions #'taskls-list--on-server-start)
(add-hook 'taskls-day-change-functions #'taskls-list--on-new-day)

;;; Opening

(defun taskls-list--same-source-p (a b)
  "Whether the sources A and B are the same list, group or smart list."
  (and (equal (plist-get a :list) (plist-get b :list))
       (equal (plist-get a :group) (plist-get b :group))
       (equal (plist-get a :smartList) (plist-get b :smartList))))

(defun taskls-open (source &optional new on-ready setup)
  "Show a list buffer on SOURCE, a list, smart group or smart list.
SOURCE is (:list ID :name NAME), (:group ID :name NAME) or
\(:smartList ID :name NAME).
An existing buffer on it is shown instead, unless NEW.  SETUP is
called in a new buffer before its view opens (to set its sort, filter
or sections); ON-READY in the buffer once its view is open.  Return
the buffer."
  (let ((existing (and (not new)
                       (cl-find-if (lambda (buffer)
                                     (taskls-list--same-source-p
                                      source (buffer-local-value 'taskls-view--source buffer)))
                                   (taskls-list-buffers)))))
    (if existing
        (progn (pop-to-buffer-same-window existing)
               (when on-ready (with-current-buffer existing (funcall on-ready)))
               existing)
      (let ((buffer (generate-new-buffer
                     (format "*taskls: %s*" (taskls-displayed (or (plist-get source :name)
                                                                  (plist-get source :list)
                                                                  (plist-get source :group)
                                                                  (plist-get source :smartList)))))))
        (pop-to-buffer-same-window buffer)
        (with-current-buffer buffer
          (taskls-list-mode)
          (setq taskls-view--source source)
          (when setup (funcall setup))
          (taskls-view--render-full)
          (taskls-view-open-view on-ready))
        buffer))))

(defun taskls-quit ()
  "Close the list buffer (and its server view)."
  (interactive)
  (quit-window t))

;;; Rows the commands act on

(defun taskls-list--item-at-point ()
  "The item row at point, or nil."
  (let ((row (taskls-view-row-at)))
    (and row (equal (plist-get row :kind) "item") row)))

(defun taskls-list--marked-rows ()
  "The marked items (row plists), in the order they are shown when known.
A marked row still in the window is taken as it is now."
  (let (rows)
    (maphash (lambda (id row)
               (push (or (cl-find id taskls-view--rows
                                  :key (lambda (shown) (plist-get shown :id)) :test #'equal)
                         row)
                     rows))
             taskls-view--marks)
    (sort rows (lambda (a b)
                 (< (or (taskls-view-index-of (plist-get a :id)) most-positive-fixnum)
                    (or (taskls-view-index-of (plist-get b :id)) most-positive-fixnum))))))

(defun taskls-list--region-rows ()
  "The items of the lines the active region covers."
  (when (use-region-p)
    (let ((end (region-end)) rows)
      (save-excursion
        (goto-char (region-beginning))
        (while (and (< (point) end) (not (eobp)))
          (let ((row (taskls-list--item-at-point)))
            (when row (push row rows)))
          (forward-line 1)))
      (nreverse rows))))

(defun taskls-list--target-rows ()
  "The items a command acts on: the marked ones, the region's, or point's.
Signal `user-error' when there are none."
  (or (taskls-list--marked-rows)
      (taskls-list--region-rows)
      (let ((row (taskls-list--item-at-point))) (and row (list row)))
      (user-error "No task here")))

(defun taskls-list--ids (rows)
  "The ids of ROWS, a vector."
  (vconcat (mapcar (lambda (row) (plist-get row :id)) rows)))

(defun taskls-list--forget-marks (&rest _)
  "Forget every mark and write the marked rows again."
  (when (> (hash-table-count taskls-view--marks) 0)
    (clrhash taskls-view--marks)
    (taskls-view-rewrite-rows)))

(defun taskls-list--update (rows fields &optional on-result on-error)
  "Set FIELDS (a plist) on ROWS in one request, then unmark every row.
ON-RESULT is called with the result after; ON-ERROR as the ERROR of
`taskls-request'."
  (let ((buffer (current-buffer)))
    (taskls-request "items/update" (append (list :ids (taskls-list--ids rows)) fields)
                    (lambda (result)
                      (when (buffer-live-p buffer)
                        (with-current-buffer buffer (taskls-list--forget-marks)))
                      (when on-result (funcall on-result result)))
                    on-error)))

;;; Moving and marking

(defun taskls-next-line (&optional n)
  "Move to the next line (N lines)."
  (interactive "p")
  (forward-line (or n 1)))

(defun taskls-previous-line (&optional n)
  "Move to the previous line (N lines)."
  (interactive "p")
  (forward-line (- (or n 1))))

(defun taskls-mark ()
  "Mark the task at point and move to the next line (as in Dired)."
  (interactive)
  (let ((row (taskls-list--item-at-point)))
    (when row
      (puthash (plist-get row :id) row taskls-view--marks)
      (taskls-list--rewrite-line)))
  (forward-line 1))

(defun taskls-unmark-backward ()
  "Move to the previous line and unmark its task."
  (interactive)
  (forward-line -1)
  (let ((row (taskls-list--item-at-point)))
    (when row
      (remhash (plist-get row :id) taskls-view--marks)
      (taskls-list--rewrite-line))))

(defun taskls-unmark-all ()
  "Unmark every task."
  (interactive)
  (taskls-list--forget-marks))

(defun taskls-list--rewrite-line ()
  "Write the line at point again (its mark changed)."
  (let ((row (taskls-view-row-at))
        (column (current-column)))
    (when row
      (let ((index (1- (line-number-at-pos))))
        (taskls-view--write-rows index (list row) 1)
        (taskls-view--goto-line index)
        (move-to-column column)))))

;;; Quick entry

(defun taskls-list--warnings (answer)
  "The warnings of a parse ANSWER as one line, or nil when there are none.
They quote what was typed, so they are escaped (`taskls-displayed')."
  (let ((warnings (append (plist-get answer :warnings) nil)))
    (and warnings
         (mapconcat (lambda (warning) (taskls-displayed (or (plist-get warning :message)
                                                            (plist-get warning :reason))))
                    warnings "; "))))

(defun taskls-list--prompt (label &optional hint problem)
  "The text of a prompt: LABEL, then HINT in parentheses.
As `Filter (empty: all): '.  After a line that was not taken,
PROBLEM stands in the hint's place, so it is seen where the text is
typed: `New task (no list named Nowhere; \\ keeps a word as text): '.
PROBLEM quotes what was typed and stored names: it comes escaped
\(`taskls-displayed'), as the warnings and the server's messages do."
  (let ((note (or problem hint)))
    (if note (format "%s (%s): " label note) (concat label ": "))))

(defun taskls-list--parse-problem (answer)
  "What is wrong with a parse ANSWER, or nil when the server read all of it."
  (let ((warnings (taskls-list--warnings answer)))
    (and warnings (concat warnings "; \\ keeps a word as text"))))

(defun taskls-escape-title (title)
  "TITLE with the words the grammar would read as fields escaped.
Shown as a prompt's text, it reads back as the same title: a marker
\(# ! @ ^ \\ /), `due:', `every', `remind' and a repeater cookie (+1w,
++1m, .+3d) get a backslash."
  (mapconcat (lambda (word)
               (if (or (string-match-p "\\`[#!@^\\/]" word)
                       (string-match-p "\\`due:" (downcase word))
                       (member (downcase word) '("every" "remind"))
                       (string-match-p "\\`\\(\\+\\+\\|\\.\\+\\|\\+\\)[0-9]\\{1,4\\}[dwmyDWMY]\\'" word))
                   (concat "\\" word)
                 word))
             (split-string title " ") " "))

(defun taskls-list--target-list (row)
  "Return the list for a new task: the buffer's, else ROW's, else the first."
  (or (plist-get taskls-view--source :list)
      (and row (plist-get row :list))
      (plist-get (car (taskls-lists)) :id)))

(defun taskls-list--read-item (label initial list on-fields)
  "Read a task line in LIST: the prompt LABEL, the text INITIAL at first.
The server reads it (`text/parseItem'); ON-FIELDS is called with the
line, the fields and the whole answer (its spans).  A line with a
warning is never stored, even when it is submitted again unchanged:
the prompt comes back with the typed text and the warning in it, to
edit, to escape a word with \\, or to leave (a blank line).
ON-FIELDS signals `user-error' when the server refused the task: the
prompt comes back the same way."
  (let ((text initial) (problem nil) (done nil))
    (while (not done)
      (setq text (read-string (taskls-list--prompt label nil problem) text))
      (if (string-blank-p text)
          (setq done t)
        (condition-case err
            (let ((answer (taskls-call "text/parseItem" (taskls--object :text text :list list))))
              (setq problem (taskls-list--parse-problem answer))
              (unless problem
                (funcall on-fields text (plist-get answer :fields) answer)
                (setq done t)))
          (user-error (setq problem (error-message-string err))))))))

(defun taskls-add ()
  "Add a task at the end of the list, read by the server.
`Buy milk ^fri !high #home @Groceries // 2 litres' sets the due, the
priority, a tag, the list and the notes; see the help (\\[taskls-help])."
  (interactive)
  (let* ((row (taskls-list--item-at-point))
         (list (taskls-list--target-list row))
         (buffer (current-buffer)))
    (unless list
      (user-error "There is no list yet: create one in the overview (M-x taskls, then +)"))
    (taskls-list--read-item
     "New task" nil list
     (lambda (_text fields _answer)
       (unless (plist-get fields :title) (user-error "A task needs a title"))
       (unless (plist-get fields :list) (setq fields (plist-put fields :list list)))
       (when (and (equal (plist-get taskls-view--source :group) "today")
                  (not (plist-member fields :due)))
         (setq fields (plist-put fields :due (taskls-today))))
       (let* ((result (taskls-call "items/create" fields))
              (id (plist-get (plist-get result :item) :id)))
         (with-current-buffer buffer (taskls-view-goto-id id)))))))

(defun taskls-list--has-span-p (answer kind)
  "Whether the parse ANSWER has a span of KIND (a string such as \"due\")."
  (cl-some (lambda (span) (equal (plist-get span :kind) kind))
           (append (plist-get answer :spans) nil)))

(defun taskls-edit ()
  "Edit the task at point: its title, and what else you type.
The prompt starts with the title (its marker words escaped); `^fri'
sets the due, `!high' the priority, `#tag' the tags, `every week' the
repeat (keeping the due the task has, unless a due is typed too),
`@List' moves it."
  (interactive)
  (let* ((row (or (taskls-list--item-at-point) (user-error "No task here")))
         (original (taskls-escape-title (plist-get row :title))))
    (taskls-list--read-item
     "Edit" original (plist-get row :list)
     (lambda (text fields answer)
       (unless (equal text original)
         (let ((list (plist-get fields :list))
               (update (list :id (plist-get row :id))))
           ;; A repeat without a due phrase: the parse's due is the rule's
           ;; first day, for a task that has none; one that has a due keeps it.
           (when (and (plist-get fields :repeat) (plist-get row :due)
                      (not (taskls-list--has-span-p answer "due")))
             (setq fields (cl-loop for (key value) on fields by #'cddr
                                         unless (eq key :due) append (list key value))))
           (dolist (name '(:title :notes :due :priority :tags :repeat :alerts))
             (when (plist-member fields name)
               (setq update (append update (list name (plist-get fields name))))))
           (when (> (length update) 2) (taskls-call "items/update" update))
           (when (and list (not (equal list (plist-get row :list))))
             (taskls-call "items/move" (list :ids (vector (plist-get row :id))
                                             :before nil :list list)))))))))

;;; Fields

(defun taskls-toggle-done ()
  "Toggle done: all done when any is not, else all not done.
A repeating task moves on to its next due instead of becoming done,
and the echo area says so: `\"Pay rent\" repeats (every month on the
1st): next due in 6 days'."
  (interactive)
  (let ((rows (taskls-list--target-rows)))
    (taskls-list--update rows (list :done (if (cl-some (lambda (row)
                                                         (not (taskls--true-p (plist-get row :done))))
                                                       rows)
                                              t :json-false))
                         #'taskls-repeat-say-advanced)))

(defconst taskls-list--due-examples "fri, tomorrow 9:30, +3, dec 1, none"
  "The due words a prompt suggests.")

(defun taskls-list--parse-due (phrase)
  "Return the due PHRASE stands for: (DUE . nil), or (nil . PROBLEM).
The server reads the phrase (`^PHRASE' through `text/parseItem', so `fri',
`tomorrow 9:30', `+3' mean what they mean everywhere); `none' is the
due nil."
  (condition-case err
      (let* ((answer (taskls-call "text/parseItem" (list :text (concat "^" phrase))))
             (warnings (taskls-list--warnings answer))
             (fields (plist-get answer :fields)))
        (cond (warnings (cons nil warnings))
              ((plist-get fields :title)
               (cons nil (concat "not a date: " (taskls-displayed (plist-get fields :title)))))
              ((not (plist-member fields :due))
               (cons nil (concat "not a date: " (taskls-displayed phrase))))
              (t (cons (plist-get fields :due) nil))))
    (user-error (cons nil (error-message-string err)))))

(defun taskls-list--read-due (&optional current)
  "Read a due date: with `org-read-date' when Org is loaded, else a prompt.
CURRENT, the due of the task (in the grammar's words, see
`taskls-due-phrase'), is named in the prompt.  Return the due as the
server reads it (`^PHRASE'), nil to clear it (`none').  A phrase that
is no date brings the prompt back with the text and what was wrong;
a blank one signals `user-error'."
  (let ((hint (concat (if (and current (not (string-empty-p current)))
                          (concat "now " current "; ")
                        "")
                      taskls-list--due-examples))
        (text nil) (problem nil) (due nil) (done nil))
    (while (not done)
      (let ((prompt (taskls-list--prompt "Due" hint
                                         (and problem (concat problem " — try "
                                                              taskls-list--due-examples)))))
        (setq text (string-trim (if (fboundp 'org-read-date)
                                    (org-read-date t nil nil prompt nil text)
                                  (read-string prompt text)))))
      (when (string-empty-p text) (user-error "No due given"))
      (let ((read (taskls-list--parse-due text)))
        (if (cdr read)
            (setq problem (cdr read))
          (setq due (car read) done t))))
    due))

(defun taskls-set-due ()
  "Set the due date (`none' clears it; a time may follow the day)."
  (interactive)
  (let ((rows (taskls-list--target-rows)))
    (taskls-list--update rows (list :due (taskls-list--read-due
                                          (and (= (length rows) 1)
                                               (taskls-due-phrase (plist-get (car rows) :due)
                                                                  (plist-get (car rows) :dueLocal))))))))

(defun taskls-set-priority ()
  "Set the priority: high, medium, low or none."
  (interactive)
  (let* ((rows (taskls-list--target-rows))
         (priority (completing-read "Priority: " '("high" "medium" "low" "none") nil t nil nil
                                    (plist-get (car rows) :priority))))
    (taskls-list--update rows (list :priority priority))))

(defun taskls-set-tags ()
  "Set the tags, separated by commas (empty: no tags)."
  (interactive)
  (let* ((rows (taskls-list--target-rows))
         (current (mapconcat #'identity (append (plist-get (car rows) :tags) nil) ", "))
         (text (read-string "Tags (comma-separated): " current))
         (tags (cl-remove-if #'string-empty-p (mapcar #'string-trim (split-string text ",")))))
    (taskls-list--update rows (list :tags (vconcat tags)))))

(defun taskls-delete ()
  "Delete the tasks (asking first when there are several)."
  (interactive)
  (let ((rows (taskls-list--target-rows))
        (buffer (current-buffer)))
    (when (or (= (length rows) 1)
              (y-or-n-p (format "Delete %d tasks? " (length rows))))
      (taskls-request "items/delete" (list :ids (taskls-list--ids rows))
                      (lambda (_result)
                        (when (buffer-live-p buffer)
                          (with-current-buffer buffer (taskls-list--forget-marks))))))))

;;; Notes

(defvar-local taskls-notes--item nil "The id of the item whose notes are edited.")
(defvar-local taskls-notes--origin nil "The list buffer the notes were opened from.")

(defvar taskls-notes-mode-map
  (let ((map (make-sparse-keymap)))
    (define-key map (kbd "C-c C-c") #'taskls-notes-save)
    (define-key map (kbd "C-c C-k") #'taskls-notes-cancel)
    map)
  "Keys of `taskls-notes-mode'.")

(define-derived-mode taskls-notes-mode text-mode "Task notes"
  "Edit a task's notes: \\[taskls-notes-save] saves, \\[taskls-notes-cancel] cancels.

\\{taskls-notes-mode-map}"
  (setq header-line-format
        (substitute-command-keys
         "Notes: \\[taskls-notes-save] saves, \\[taskls-notes-cancel] cancels")))

(defun taskls-edit-notes ()
  "Edit the notes of the task at point in their own buffer."
  (interactive)
  (let* ((row (or (taskls-list--item-at-point) (user-error "No task here")))
         (item (taskls-call "items/get" (list :id (plist-get row :id))))
         (origin (current-buffer))
         (buffer (get-buffer-create (format "*taskls notes: %s*"
                                            (taskls-displayed (plist-get item :title))))))
    (pop-to-buffer buffer)
    (taskls-notes-mode)
    (erase-buffer)
    (insert (or (plist-get item :notes) ""))
    (goto-char (point-min))
    (set-buffer-modified-p nil)
    (setq taskls-notes--item (plist-get item :id)
          taskls-notes--origin origin)
    buffer))

(defun taskls-notes--close ()
  "Close the notes buffer and go back to its list."
  (let ((origin taskls-notes--origin))
    (quit-window t)
    (when (buffer-live-p origin)
      (let ((window (get-buffer-window origin)))
        (if window (select-window window) (pop-to-buffer-same-window origin))))))

(defun taskls-notes-save ()
  "Save the notes to the task and close the buffer."
  (interactive)
  (taskls-call "items/update" (list :id taskls-notes--item
                                    :notes (buffer-substring-no-properties (point-min) (point-max))))
  (set-buffer-modified-p nil)
  (taskls-notes--close))

(defun taskls-notes-cancel ()
  "Close the notes buffer without saving."
  (interactive)
  (set-buffer-modified-p nil)
  (taskls-notes--close))

;;; Order

(defun taskls-list--manual-p ()
  "Whether the view is in manual ascending order."
  (and (member (plist-get taskls-view--sort :by) '(nil "manual"))
       (not (equal (plist-get taskls-view--sort :direction) "descending"))))

(defun taskls-list--move (delta)
  "Move the task at point (or the marked block) by DELTA rows.
Each task moves with its subtree: the server takes the rows of the
subtrees shown below them along, and those hidden under a collapsed
task.  A move past either end stops there.  The tasks keep their
depth where the rows they land between allow it, else take the nearest
allowed (`taskls-view-landing-depth')."
  (unless (taskls-list--manual-p)
    (user-error "This list is sorted by %s%s: M-p and M-n reorder only in manual order (press s to sort manually)"
                (plist-get taskls-view--sort :by)
                (if (equal (plist-get taskls-view--sort :direction) "descending") " (descending)" "")))
  (let* ((rows (taskls-list--target-rows))
         (indexes (mapcar (lambda (row) (taskls-view-index-of (plist-get row :id))) rows))
         (from (and (cl-every #'identity indexes) (apply #'min indexes)))
         (count (length rows))
         (buffer (current-buffer)))
    (unless (and from (= (- (apply #'max indexes) from) (1- count)))
      (user-error "Only a block of rows next to each other can move"))
    (let* ((block (taskls-view-block from (+ from count -1)))
           (size (if block (- (car block) from) count))
           (to (max 0 (min (+ from delta) (- taskls-view--count size))))
           (depth (and block (taskls-view-landing-depth from size to (cdr block)))))
      (unless (= to from)
        (taskls-request "items/move"
                        (append (list :view taskls-view--view :version taskls-view--version
                                      :from from :count count :to to)
                                (and depth (list :depth depth)))
                        nil
                        (lambda (err)
                          (when (eql (plist-get err :code) -32801)
                            (when (buffer-live-p buffer)
                              (with-current-buffer buffer (taskls-view-resync)))
                            (taskls--say "the list changed meanwhile: nothing moved, try again")
                            t)))))))

(defun taskls-move-up ()
  "Move the task (or the marked block) up with its subtasks, in manual order."
  (interactive)
  (taskls-list--move -1))

(defun taskls-move-down ()
  "Move the task (or the marked block) down with its subtasks, in manual order."
  (interactive)
  (taskls-list--move 1))

;;; Sort, filter, sections

(defconst taskls-sorts
  '(("manual" "manual" "ascending")
    ("title" "title" "ascending")
    ("due" "due" "ascending")
    ("priority (high first)" "priority" "descending")
    ("newest first" "created" "descending")
    ("recently modified" "modified" "descending"))
  "The sorts `taskls-sort' offers: (LABEL FIELD DIRECTION).")

(defun taskls-list--set-view (method params on-done)
  "Send METHOD with PARAMS for the view; call ON-DONE in the buffer after."
  (let ((buffer (current-buffer)))
    (taskls-request method (append (list :view taskls-view--view) params)
                    (lambda (_result)
                      (when (buffer-live-p buffer)
                        (with-current-buffer buffer
                          (funcall on-done)
                          (taskls-view-update-name)))))))

(defun taskls-sort (label)
  "Sort the list by LABEL (one of `taskls-sorts')."
  (interactive (list (completing-read "Sort by: " (mapcar #'car taskls-sorts) nil t)))
  (let* ((entry (or (assoc label taskls-sorts) (user-error "No sort %s" label)))
         (sort (list :by (nth 1 entry) :direction (nth 2 entry))))
    (taskls-list--set-view "view/sort" (list :sort sort)
                           (lambda () (setq taskls-view--sort sort)))))

(defun taskls-list--parse-filter (text)
  "TEXT read as a filter by the server: (FILTER . PROBLEM).
PROBLEM is nil when the server read all of it, else its warnings (or
the refusal) as one line."
  (condition-case err
      (let* ((answer (taskls-call "text/parseFilter" (list :text text)))
             (problem (taskls-list--parse-problem answer)))
        (cons (or (plist-get answer :filter) (make-hash-table)) problem))
    (user-error (cons nil (error-message-string err)))))

(defun taskls-list--read-filter ()
  "Read a filter; return (TEXT FILTER), FILTER nil for a blank TEXT.
The prompt starts with the filter in use.  A text with a warning is
not taken: the prompt comes back with it and the warning."
  (let ((text taskls-view--filter-text) (problem nil) (result nil))
    (while (not result)
      (setq text (read-string (taskls-list--prompt "Filter" "empty: all" problem) text))
      (if (string-blank-p text)
          (setq result (list text nil))
        (let ((parsed (taskls-list--parse-filter text)))
          (if (cdr parsed)
              (setq problem (cdr parsed))
            (setq result (list text (car parsed)))))))
    result))

(defun taskls-filter (text &optional filter)
  "Filter the list by TEXT, read by the server; empty TEXT clears it.
`#home !high+ due<fri open milk': tag, priority, due, not done, words.
FILTER is TEXT as the server read it (asked for when nil).  A text
with a warning changes nothing: interactively the prompt comes back
with it, else `user-error' says the warning."
  (interactive (taskls-list--read-filter))
  (if (string-blank-p text)
      (taskls-list--set-view "view/filter" (list :filter nil)
                             (lambda () (setq taskls-view--filter nil
                                              taskls-view--filter-text nil)))
    (unless filter
      (let ((parsed (taskls-list--parse-filter text)))
        (when (cdr parsed) (user-error "%s" (cdr parsed)))
        (setq filter (car parsed))))
    (taskls-list--set-view "view/filter" (list :filter filter)
                           (lambda () (setq taskls-view--filter filter
                                            taskls-view--filter-text text)))))

(defconst taskls-groupings
  '(("none" . "none") ("due date" . "dueBucket") ("priority" . "priority")
    ("list" . "list") ("done" . "done"))
  "The sections `taskls-sections' offers: (LABEL . GROUPING).")

(defun taskls-sections (label)
  "Group the list into sections by LABEL (one of `taskls-groupings')."
  (interactive (list (completing-read "Sections: " (mapcar #'car taskls-groupings) nil t)))
  (let ((grouping (or (cdr (assoc label taskls-groupings)) (user-error "No sections %s" label))))
    (taskls-list--set-view "view/sections" (list :sections grouping)
                           (lambda () (setq taskls-view--sections grouping)))))

;;; Undo, refresh, details

(defun taskls-list--step-words (result)
  "The step an `undo' or `redo' RESULT names, in words (`delete 3 tasks').
The server's `description'; never the method name."
  (let ((words (plist-get result :description)))
    (if (stringp words) (taskls-displayed words) "the latest change")))

(defun taskls-undo ()
  "Undo your latest change, through the server."
  (interactive)
  (taskls-request "undo" nil
                  (lambda (result) (taskls--say "undid: %s" (taskls-list--step-words result)))))

(defun taskls-redo ()
  "Redo the change you undid last, through the server."
  (interactive)
  (taskls-request "redo" nil
                  (lambda (result) (taskls--say "redid: %s" (taskls-list--step-words result)))))

(defun taskls-refresh ()
  "Fetch the rows again; retry a store in error; restart a stopped server."
  (interactive)
  (cond ((or taskls-view--stopped (not (taskls-running-p)) (null taskls-view--view))
         (unless taskls-view--closed (taskls-view-open-view)))
        ((equal taskls-view--state "error")
         (let ((buffer (current-buffer)))
           (taskls-request "store/retry" nil
                           (lambda (result)
                             (when (and (eq (plist-get result :retried) :json-false)
                                        (buffer-live-p buffer))
                               (with-current-buffer buffer (taskls-view-resync)))))))
        (t (taskls-view-resync))))

(defun taskls-list--describe-item (item)
  "ITEM in full, as lines of text."
  (let ((lines (list (taskls-displayed (plist-get item :title)) "")))
    (cl-flet ((field (name value)
                (when (and value (not (equal value "")))
                  (setq lines (append lines (list (format "%-10s %s" name value)))))))
      (field "List" (taskls-displayed (or (taskls-list-name (plist-get item :list))
                                          (plist-get item :list))))
      (field "Done" (and (taskls--true-p (plist-get item :done))
                         (or (plist-get item :completed) "yes")))
      (let ((due (plist-get item :due)))
        (field "Due" (and due (format "%s (%s)"
                                      (car (taskls-due-text due (taskls--true-p (plist-get item :done))
                                                            (plist-get item :dueLocal)))
                                      (taskls-due-phrase due (plist-get item :dueLocal))))))
      (dolist (line (taskls-repeat-describe item))
        (field (car line) (cdr line)))
      (field "Priority" (let ((priority (plist-get item :priority)))
                          (and (not (equal priority "none")) priority)))
      (field "Tags" (let ((tags (append (plist-get item :tags) nil)))
                      (and tags (mapconcat (lambda (tag) (concat "#" (taskls-displayed tag))) tags " "))))
      (field "Created" (plist-get item :created))
      (field "Modified" (plist-get item :modified)))
    (let ((notes (plist-get item :notes)))
      (when (and notes (not (equal notes "")))
        (setq lines (append lines (list "") (mapcar #'taskls-displayed (split-string notes "\n"))))))
    lines))

(defun taskls-show-item ()
  "Show the task at point in full: notes, dates, tags."
  (interactive)
  (let* ((row (or (taskls-list--item-at-point) (user-error "No task here")))
         (item (taskls-call "items/get" (list :id (plist-get row :id)))))
    (with-help-window "*taskls task*"
      (princ (mapconcat #'identity (taskls-list--describe-item item) "\n")))))

;;; Eldoc, imenu, bookmarks

(defun taskls-list--eldoc (callback &rest _)
  "Echo the task at point in full (its due, repeat, notes) through CALLBACK."
  (let ((row (taskls-list--item-at-point)))
    (when (and row (taskls-running-p))
      (taskls-request "items/get" (list :id (plist-get row :id))
                      (lambda (item)
                        (let ((due (and (plist-get item :due)
                                        (taskls-due-phrase (plist-get item :due)
                                                           (plist-get item :dueLocal))))
                              (notes (plist-get item :notes)))
                          (funcall callback
                                   (mapconcat #'identity
                                              (delq nil (list (and due (concat "due " due))
                                                              (let ((repeat (taskls-repeat-text item)))
                                                                (and repeat (concat "repeats " repeat)))
                                                              (and notes (not (equal notes ""))
                                                                   (taskls-displayed
                                                                    (car (split-string notes "\n"))))))
                                              " — "))))
                      #'ignore)
      t)))

(defun taskls-list--imenu-index ()
  "The section headers of the rows fetched, for `imenu'."
  (let (index)
    (dolist (row taskls-view--rows)
      (when (equal (plist-get row :kind) "header")
        (let ((line (taskls-view-index-of (plist-get row :id))))
          (push (cons (taskls-displayed (plist-get row :title))
                      (save-excursion (taskls-view--goto-line line) (point)))
                index))))
    (nreverse index)))

(defun taskls-list--bookmark-record ()
  "A bookmark for this list buffer: its list, sort, filter and sections."
  (list (or (plist-get taskls-view--source :name) "taskls")
        (cons 'handler #'taskls-bookmark-jump)
        (cons 'taskls-source taskls-view--source)
        (cons 'taskls-sort taskls-view--sort)
        (cons 'taskls-filter-text taskls-view--filter-text)
        (cons 'taskls-sections taskls-view--sections)))

;;;###autoload
(defun taskls-bookmark-jump (bookmark)
  "Open the list BOOKMARK names, with its sort, filter and sections."
  (let ((sort (bookmark-prop-get bookmark 'taskls-sort))
        (filter-text (bookmark-prop-get bookmark 'taskls-filter-text))
        (sections (bookmark-prop-get bookmark 'taskls-sections)))
    (set-buffer
     (taskls-open (bookmark-prop-get bookmark 'taskls-source) t nil
                  (lambda ()
                    (setq taskls-view--sort sort
                          taskls-view--sections sections)
                    (when filter-text
                      (setq taskls-view--filter
                            (plist-get (taskls-call "text/parseFilter" (list :text filter-text))
                                       :filter)
                            taskls-view--filter-text filter-text)))))))

(provide 'taskls-list)
;;; taskls-list.el ends here
