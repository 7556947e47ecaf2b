;;; taskls-tree.el --- Subtasks in the taskls list buffer: folding, indenting, adding -*- lexical-binding: t; -*-

;; Copyright (C) 2026 The taskls authors

;; This file is part of taskls.  See taskls.el for the package's headers.

;;; Commentary:

;; The commands of a list buffer that act on the tree of tasks, with
;; org-mode's keys: TAB collapses or expands the subtasks of the task at
;; point, S-TAB (or C-u TAB) all of them; M-<right> and M-<left> indent
;; and outdent; A adds a subtask below the task at point, o a task on
;; the line below, O one above.  The server hides the rows of a
;; collapsed task (`view/collapse', `view/expand'): these are not
;; outline folds, and the buffer's lines are the rows shown.  Each view
;; folds on its own: another buffer on the list is not touched.  Point
;; stays on its task; a task hidden by collapsing hands it to the
;; collapsed ancestor that now stands for it.

;;; Code:

(require 'cl-lib)
(require 'taskls-client)
(require 'taskls-view)
(require 'taskls-list)

(define-key taskls-list-mode-map (kbd "TAB") #'taskls-toggle-subtasks)
(define-key taskls-list-mode-map (kbd "<backtab>") #'taskls-cycle-all)
(define-key taskls-list-mode-map (kbd "M-<right>") #'taskls-indent)
(define-key taskls-list-mode-map (kbd "M-<left>") #'taskls-outdent)
(define-key taskls-list-mode-map (kbd "A") #'taskls-add-subtask)
(define-key taskls-list-mode-map (kbd "o") #'taskls-add-below)
(define-key taskls-list-mode-map (kbd "O") #'taskls-add-above)

;;; Folding

(defun taskls-tree--rows ()
  "The items folding acts on: the region's, else the one at point."
  (or (taskls-list--region-rows)
      (let ((row (taskls-list--item-at-point))) (and row (list row)))))

(defun taskls-tree--send-fold (method params)
  "Send METHOD (`view/collapse' or `view/expand') with PARAMS for this view.
The rows change through the view's notification, which comes before
the answer; point is put back on its task there, or, when the change
took the task out of the fetched rows, after the answer
\(`taskls-tree--follow')."
  (when taskls-view--view
    (let ((buffer (current-buffer))
          (view taskls-view--view)
          (record (taskls-view--point-record (point))))
      (taskls-request method (append (list :view view) params)
                      (lambda (_result) (taskls-tree--follow buffer view record))))))

(defun taskls-tree--follow (buffer view record)
  "Put point back on the task of RECORD after a fold in BUFFER's VIEW.
When the fold took the task out of the fetched rows (a long list
collapsed or expanded far from point), `view/locate' says where its
row is now, or the row of the collapsed ancestor hiding it, as outline
puts point on a folded heading; the rows there are fetched as for any
move of point.  Nothing happens when point moved meanwhile, or when
the buffer is behind the answer's version (a later change moved the
rows again)."
  (when (and (car record) (buffer-live-p buffer))
    (with-current-buffer buffer
      (when (and (equal taskls-view--view view) (not (taskls-view-find-index record)))
        (let ((at (point)))
          (taskls-request
           "view/locate" (list :view view :id (car record))
           (lambda (found)
             (when (buffer-live-p buffer)
               (with-current-buffer buffer
                 (let ((index (plist-get found :index)))
                   (when (and (equal taskls-view--view view) (natnump index) (= (point) at)
                              (eql (plist-get found :version) taskls-view--version))
                     (taskls-view--goto-line index)
                     (dolist (window (get-buffer-window-list buffer nil t))
                       (when (= (window-point window) at) (set-window-point window (point))))
                     (taskls-view--count-stat :located)
                     (taskls-view-schedule-check))))))
           (lambda (_error) t)))))))

(defun taskls-tree--fold (how)
  "Collapse, expand or toggle (HOW: `collapse', `expand', `toggle').
Acts on the region's tasks, else the one at point, when they have
subtasks in the view (shown or hidden).  Toggling collapses them all
when any is expanded, else expands them.  Toggling or collapsing a
task without subtasks, or collapsing one already collapsed, collapses
the task it is a subtask of, and point goes there, as `outline-cycle'
in a heading's body acts on the heading."
  (let ((rows (taskls-tree--rows)) open closed)
    (dolist (row rows)
      (when (taskls--true-p (plist-get row :hasChildren))
        (if (taskls--true-p (plist-get row :collapsed))
            (push (plist-get row :id) closed)
          (push (plist-get row :id) open))))
    (setq open (nreverse open) closed (nreverse closed))
    (cond
     ((null rows))
     ((eq how 'expand)
      (when closed (taskls-tree--send-fold "view/expand" (list :ids (vconcat closed)))))
     (open (taskls-tree--send-fold "view/collapse" (list :ids (vconcat open))))
     ((and (eq how 'toggle) closed)
      (taskls-tree--send-fold "view/expand" (list :ids (vconcat closed))))
     (t
      (let ((parents (delete-dups (delq nil (mapcar (lambda (row) (plist-get row :parent)) rows)))))
        (when parents
          (taskls-tree--send-fold "view/collapse" (list :ids (vconcat parents)))))))))

(defun taskls-toggle-subtasks (&optional all)
  "Collapse the subtasks of the task at point, or expand them if collapsed.
On the region's tasks when it is active.  On a task without subtasks
it collapses the task above it, its parent, and point goes there.
With a prefix argument ALL, as \\[taskls-cycle-all]: every task."
  (interactive "P")
  (if all (taskls-cycle-all) (taskls-tree--fold 'toggle)))

(defun taskls-collapse-subtasks ()
  "Collapse the subtasks of the task at point (on a leaf: its parent's)."
  (interactive)
  (taskls-tree--fold 'collapse))

(defun taskls-expand-subtasks ()
  "Expand the subtasks of the task at point (or of the region's tasks)."
  (interactive)
  (taskls-tree--fold 'expand))

(defun taskls-collapse-all ()
  "Collapse every task of the buffer's view."
  (interactive)
  (taskls-tree--send-fold "view/collapse" (list :all t)))

(defun taskls-expand-all ()
  "Expand every task of the buffer's view."
  (interactive)
  (taskls-tree--send-fold "view/expand" (list :all t)))

(defun taskls-cycle-all ()
  "Collapse every task, or expand every task when none is expanded.
Expanded: a task of the rows fetched shows its subtasks.  As
org-mode's S-TAB, in two states: the top-level tasks alone, or every
task."
  (interactive)
  (if (cl-some (lambda (row) (and (taskls--true-p (plist-get row :hasChildren))
                                  (not (taskls--true-p (plist-get row :collapsed)))))
               taskls-view--rows)
      (taskls-collapse-all)
    (taskls-expand-all)))

;;; Indenting

(defun taskls-tree--refusal (err rows outdent)
  "A refusal ERR of indenting (OUTDENT: outdenting) ROWS, in words."
  (let ((title (format "\"%s\"" (taskls-displayed (or (plist-get (car rows) :title) ""))))
        (verb (if outdent "outdent" "indent")))
    (pcase (taskls--error-reason err)
      ("noPreviousSibling"
       (format "cannot indent %s: no task above it at its level to become a subtask of" title))
      ("topLevel" (format "cannot outdent %s: it is already at the top level" title))
      ("notSiblings"
       (format "cannot %s these tasks together: they are not subtasks of the same task" verb))
      ("tooDeep" (format "cannot indent %s: subtasks go at most 15 levels deep" title))
      (_ (format "cannot %s: %s" verb (taskls--describe-error err))))))

(defun taskls-tree--indent (outdent)
  "Indent the target tasks, or OUTDENT them, with their subtasks."
  (let ((rows (taskls-list--target-rows))
        (buffer (current-buffer)))
    (taskls-request (if outdent "items/outdent" "items/indent")
                    (list :ids (taskls-list--ids rows))
                    (lambda (_result)
                      (when (buffer-live-p buffer)
                        (with-current-buffer buffer (taskls-list--forget-marks))))
                    (lambda (err)
                      (when (eql (plist-get err :code) -32803)
                        (taskls--say "%s" (taskls-tree--refusal err rows outdent))
                        t)))))

(defun taskls-indent ()
  "Make the task at point the last subtask of the task above it at its level.
Its subtasks go with it.  On the marked tasks, else the region's
\(siblings, all of them).  A refusal is one message in words."
  (interactive)
  (taskls-tree--indent nil))

(defun taskls-outdent ()
  "Make the task at point the next sibling of its parent, right after it.
Its subtasks go with it.  On the marked tasks, else the region's
\(siblings, all of them).  A refusal is one message in words."
  (interactive)
  (taskls-tree--indent t))

;;; Adding in the tree

(defun taskls-tree--placement (where row list)
  "Return where a new task in LIST is to go, as `items/create' params.
For WHERE: `above' ROW, as its sibling; `below' ROW, so that it is
the row right below it: the first subtask of a task whose subtasks are
shown, else its next sibling (the last of its parent's subtasks when none
follows); `subtask': the first subtask of ROW.  ROW is the row as it
is now.  For another list than ROW's only a subtask's parent is set
\(which the server refuses: a subtask is in its parent's list)."
  (let* ((index (taskls-view-index-of (plist-get row :id)))
         (next (and index (taskls-view-row (1+ index))))
         (next (and next (equal (plist-get next :kind) "item") next))
         (first-child (and next (equal (plist-get next :parent) (plist-get row :id)) next)))
    (cond
     ((not (equal (plist-get row :list) list))
      (and (eq where 'subtask) (list :parent (plist-get row :id))))
     ((eq where 'above) (list :before (plist-get row :id)))
     ((or (eq where 'subtask) first-child)
      (append (list :parent (plist-get row :id))
              (and first-child (list :before (plist-get first-child :id)))))
     (t
      (append (list :parent (plist-get row :parent))
              (and next (equal (plist-get next :parent) (plist-get row :parent))
                   (equal (plist-get next :list) list)
                   (list :before (plist-get next :id))))))))

(defun taskls-tree--add (where label)
  "Add a task WHERE (see `taskls-tree--placement') the task at point.
LABEL is the prompt's.  The line is read by the server as for
`taskls-add'; a collapsed task is expanded before a subtask is added
to it, so the new one is seen; point goes to the new task."
  (let* ((row (taskls-list--item-at-point))
         (buffer (current-buffer))
         (list (if (and row (eq where 'subtask))
                   (plist-get row :list)
                 (taskls-list--target-list row))))
    (unless (or row (not (eq where 'subtask)))
      (user-error "No task here to add a subtask to"))
    (unless list
      (user-error "There is no list yet: create one in the overview (M-x taskls, then +)"))
    (taskls-list--read-item
     label nil list
     (lambda (_text fields _answer)
       (unless (plist-get fields :title) (user-error "A task needs a title"))
       (unless (plist-get fields :list) (setq fields (plist-put fields :list list)))
       (when (and (equal (plist-get taskls-view--source :group) "today")
                  (not (plist-member fields :due)))
         (setq fields (plist-put fields :due (taskls-today))))
       (with-current-buffer buffer
         ;; The row as it is now: the prompt took time, rows may have moved.
         (let ((current (and row (or (cl-find (plist-get row :id) taskls-view--rows
                                              :key (lambda (shown) (plist-get shown :id))
                                              :test #'equal)
                                     (and (eq where 'subtask) row)))))
           (when (and current (eq where 'subtask)
                      (taskls--true-p (plist-get current :collapsed))
                      taskls-view--view)
             (taskls-call "view/expand" (list :view taskls-view--view
                                              :ids (vector (plist-get current :id))))
             (setq current (cl-find (plist-get row :id) taskls-view--rows
                                    :key (lambda (shown) (plist-get shown :id)) :test #'equal)))
           (when current
             (setq fields (append fields (taskls-tree--placement where current
                                                                 (plist-get fields :list)))))
           (when (and (eq where 'subtask) (not (plist-member fields :parent)))
             (setq fields (append fields (list :parent (plist-get row :id)))))))
       (let* ((result (taskls-call "items/create" fields))
              (id (plist-get (plist-get result :item) :id)))
         (with-current-buffer buffer (taskls-view-goto-id id)))))))

(defun taskls-add-subtask ()
  "Add a subtask of the task at point, right below it (its first subtask).
A collapsed task is expanded first, so the new one is seen.  The line
is read as by \\[taskls-add]."
  (interactive)
  (taskls-tree--add 'subtask "New subtask"))

(defun taskls-add-below ()
  "Add a task on the line below the task at point.
The first subtask of a task whose subtasks are shown, else the next
sibling of the task, at its level (on the last subtask of a task, a
subtask after it).  The line is read as by \\[taskls-add]."
  (interactive)
  (taskls-tree--add 'below "New task"))

(defun taskls-add-above ()
  "Add a task above the task at point, at its level.
The line is read as by \\[taskls-add]."
  (interactive)
  (taskls-tree--add 'above "New task"))

(provide 'taskls-tree)
;;; taskls-tree.el ends here
