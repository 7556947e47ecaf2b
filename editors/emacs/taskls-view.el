;;; taskls-view.el --- One taskls view in one buffer, virtualized and incremental -*- lexical-binding: t; -*-

;; Copyright (C) 2026 The taskls authors

;; This file is part of taskls.  See taskls.el for the package's headers.

;;; Commentary:

;; The model of a list buffer and how it reaches the text.  The buffer
;; holds one line per row of the whole view (`count' lines): rows outside
;; the window the server sends are placeholder lines, so line numbers,
;; `end-of-buffer' and the scroll bar are true, and a 100,000-item list
;; opens at once.  The window (the rows the server sends, at most 1,000)
;; follows what the Emacs windows show, plus `taskls-margin' rows each
;; side.
;;
;; `view/changed' ops are applied strictly by version, each to exactly
;; the lines it changes (no redraw); a version gap fetches a snapshot
;; silently.  Point, and the point of every window on the buffer, belongs
;; to a row id: it is saved before a write and put back on the same row
;; after it.  Only an open, a change of state and a resync draw the whole
;; buffer.

;;; Code:

(require 'cl-lib)
(require 'taskls-client)
(require 'taskls-render)

(defcustom taskls-margin 100
  "Rows fetched above and below what the windows show."
  :type 'natnum
  :group 'taskls)

(defvar-local taskls-view--source nil
  "What the buffer shows: (:list ID :name NAME), (:group ID :name NAME)
or (:smartList ID :name NAME).")
(defvar-local taskls-view--view nil "The server's view id.")
(defvar-local taskls-view--version nil "The version of the view the buffer shows.")
(defvar-local taskls-view--state nil "The view's state: \"ready\", \"loading\", \"error\".")
(defvar-local taskls-view--count 0 "The rows of the whole view.")
(defvar-local taskls-view--progress nil "Loading progress, 0 to 1.")
(defvar-local taskls-view--error nil "The error plist of a view in state error.")
(defvar-local taskls-view--empty nil "Why a view of no rows is empty.")
(defvar-local taskls-view--start 0 "The window's first row index.")
(defvar-local taskls-view--end 0 "The window's end (exclusive).")
(defvar-local taskls-view--rows nil "The rows of the window, a list of plists.")
(defvar-local taskls-view--sort nil "The view's sort plist.")
(defvar-local taskls-view--filter nil "The view's filter plist.")
(defvar-local taskls-view--filter-text nil "The text the filter was typed as.")
(defvar-local taskls-view--sections nil "The view's sections.")
(defvar-local taskls-view--mode nil "`rows' when rows are shown, `state' for a state line.")
(defvar-local taskls-view--lines 0 "The lines of the buffer.")
(defvar-local taskls-view--closed nil
  "Non-nil once the view's list was deleted: the `view/closed' reason.")
(defvar-local taskls-view--stopped nil "Non-nil once the server stopped.")
(defvar-local taskls-view--resyncing nil "Non-nil while a resync is under way.")
(defvar-local taskls-view--window-request nil "The window being requested, or nil.")
(defvar-local taskls-view--window-again nil "Non-nil to check the window again after the request.")
(defvar-local taskls-view--check-timer nil "The timer of a scheduled window check.")
(defvar-local taskls-view--marks nil "Marked item ids (a hash table).")
(defvar-local taskls-view--title-width nil
  "The cells of the title column, from the width of the window showing the rows.")
(defvar-local taskls-view--stats nil
  "Counters for tests, a plist.
Its keys are :rows-received :window-requests :resyncs :gaps
:full-renders :lines-written :ops.")

(defun taskls-view--count-stat (name &optional amount)
  "Add AMOUNT (default 1) to the counter NAME of `taskls-view--stats'."
  (setq taskls-view--stats
        (plist-put taskls-view--stats name
                   (+ (or (plist-get taskls-view--stats name) 0) (or amount 1)))))

(defun taskls-view-stat (name)
  "The counter NAME of the current buffer's view (see `taskls-view--stats')."
  (or (plist-get taskls-view--stats name) 0))

;;; Lines

(defun taskls-view--show-list-p ()
  "Whether rows say their list (a smart group or a smart list)."
  (and (or (plist-get taskls-view--source :group) (plist-get taskls-view--source :smartList)) t))

(defun taskls-view--marked-p (id)
  "Whether the item ID is marked."
  (and taskls-view--marks (gethash id taskls-view--marks)))

(defun taskls-view--window-title-width ()
  "The cells of the title column for the window showing the buffer.
The window's text area less the other columns (see
`taskls-title-width'); as for an 80-column window when none shows it."
  (let ((window (taskls-view--display-window)))
    (taskls-title-width (if window (window-max-chars-per-line window) 79)
                        (taskls-view--show-list-p))))

(defun taskls-view-check-width ()
  "Write the rows again when the window's width changed the title column."
  (let ((width (taskls-view--window-title-width)))
    (unless (eql width taskls-view--title-width)
      (setq taskls-view--title-width width)
      (taskls-view-rewrite-rows))))

(defun taskls-view--line (row)
  "The line of ROW with its newline and properties."
  (let ((text (concat (taskls-row-text row (taskls-view--show-list-p)
                                       (taskls-view--marked-p (plist-get row :id))
                                       (or taskls-view--title-width
                                           (setq taskls-view--title-width
                                                 (taskls-view--window-title-width))))
                      "\n")))
    (add-text-properties 0 (length text)
                         (list 'taskls-id (plist-get row :id) 'taskls-row row)
                         text)
    text))

(defun taskls-view--placeholders (n)
  "N placeholder lines."
  (let ((line (concat (taskls-placeholder-text) "\n")))
    (if (<= n 0) "" (apply #'concat (make-list n line)))))

(defmacro taskls-view--writing (&rest body)
  "Run BODY with the buffer writable, recording no undo."
  (declare (indent 0) (debug t))
  `(let ((inhibit-read-only t)
         (buffer-undo-list t)
         (modified (buffer-modified-p)))
     (save-excursion ,@body)
     (set-buffer-modified-p modified)))

(defun taskls-view--goto-line (index)
  "Move to the start of line INDEX (0-based)."
  (goto-char (point-min))
  (forward-line index))

(defun taskls-view--replace (index n text lines)
  "Replace the N lines from line INDEX with TEXT, which has LINES lines."
  (taskls-view--writing
    (taskls-view--goto-line index)
    (let ((from (point)))
      (forward-line n)
      (delete-region from (point))
      (insert text)))
  (taskls-view--count-stat :lines-written lines)
  (setq taskls-view--lines (+ taskls-view--lines (- lines n))))

(defun taskls-view--write-rows (index rows replace)
  "Write ROWS from line INDEX, replacing REPLACE lines there."
  (taskls-view--replace index replace (mapconcat #'taskls-view--line rows "")
                        (length rows)))

(defun taskls-view-state-line ()
  "The line shown instead of rows, and its face, as a cons; nil for rows."
  (cond
   ((equal taskls-view--closed "smartListDeleted")
    (cons "This smart list was deleted — press q to close" 'taskls-error))
   (taskls-view--closed
    (cons "This list was deleted — press q to close" 'taskls-error))
   (taskls-view--stopped
    (cons "The server stopped — press g to restart it" 'taskls-error))
   ((equal taskls-view--state "loading")
    (cons (format "Loading… %d%%" (round (* 100 (or taskls-view--progress 0))))
          'taskls-state))
   ((equal taskls-view--state "error")
    (cons (format "Error: %s — press g to retry"
                  (taskls-displayed (or (plist-get taskls-view--error :message) "unknown error")))
          'taskls-error))
   ((null taskls-view--state) (cons "Opening…" 'taskls-state))
   ((zerop (or taskls-view--count 0))
    (if (equal taskls-view--empty "noMatches")
        (cons "No matches — clear the filter with /" 'taskls-state)
      (cons "No tasks — press a to add one" 'taskls-state)))))

(defun taskls-view--render-full ()
  "Draw the whole buffer: the state line, or every row and placeholder."
  (taskls-view--count-stat :full-renders)
  (let ((state (taskls-view-state-line)))
    (taskls-view--writing
      (erase-buffer)
      (if state
          (progn
            (setq taskls-view--mode 'state)
            (insert (propertize (car state) 'face (cdr state)) "\n")
            (setq taskls-view--lines 1))
        (setq taskls-view--mode 'rows)
        (let* ((start (min taskls-view--start taskls-view--count))
               (shown (min (length taskls-view--rows) (- taskls-view--count start))))
          (insert (taskls-view--placeholders start))
          (insert (mapconcat #'taskls-view--line (cl-subseq taskls-view--rows 0 shown) ""))
          (insert (taskls-view--placeholders (- taskls-view--count start shown)))
          (setq taskls-view--lines taskls-view--count))))))

(defun taskls-view--fix-tail ()
  "Make the buffer `count' lines long with placeholders at its end."
  (let ((lines taskls-view--lines))
    (cond ((< lines taskls-view--count)
           (taskls-view--replace lines 0 (taskls-view--placeholders (- taskls-view--count lines))
                                 (- taskls-view--count lines)))
          ((> lines taskls-view--count)
           (taskls-view--replace taskls-view--count (- lines taskls-view--count) "" 0)))))

(defun taskls-view-rewrite-rows ()
  "Write the window's rows again (a row was marked, or the day changed)."
  (when (eq taskls-view--mode 'rows)
    (let ((saved (taskls-view--save-points)))
      (taskls-view--write-rows taskls-view--start taskls-view--rows (length taskls-view--rows))
      (taskls-view--restore-points saved))))

;;; Rows and points

(defun taskls-view-row-at (&optional pos)
  "The row plist at POS (default point), or nil (a placeholder, a state)."
  (get-text-property (save-excursion (goto-char (or pos (point)))
                                     (line-beginning-position))
                     'taskls-row))

(defun taskls-view-index-of (id)
  "The line index (0-based) of the row ID in the window, or nil."
  (let ((position (cl-position id taskls-view--rows
                               :key (lambda (row) (plist-get row :id)) :test #'equal)))
    (and position (eq taskls-view--mode 'rows) (+ taskls-view--start position))))

(defun taskls-view-goto-id (id)
  "Move point to the row ID; return non-nil when it is in the window."
  (let ((index (taskls-view-index-of id)))
    (when index
      (taskls-view--goto-line index)
      (dolist (window (get-buffer-window-list (current-buffer) nil t))
        (set-window-point window (point)))
      t)))

(defun taskls-view-ancestors-of (id)
  "The ids of the ancestors of the row ID that are rows of the window.
Nearest first; a parent is always a row above its subtasks.
- Complexity: O(rows of the window)."
  (let* ((position (cl-position id taskls-view--rows
                                :key (lambda (row) (plist-get row :id)) :test #'equal))
         (parent (and position (plist-get (nth position taskls-view--rows) :parent)))
         (above (and position (reverse (cl-subseq taskls-view--rows 0 position))))
         chain)
    (while (and parent above)
      (let ((row (pop above)))
        (when (equal (plist-get row :id) parent)
          (push parent chain)
          (setq parent (plist-get row :parent)))))
    (nreverse chain)))

(defun taskls-view--point-record (pos)
  "What to put back for a point at POS: (ID INDEX COLUMN ANCESTORS).
ANCESTORS are the ids of the row's ancestors in the window, nearest
first: a row hidden by collapsing hands point to the one that now
stands for it."
  (save-excursion
    (goto-char pos)
    (let ((id (get-text-property (line-beginning-position) 'taskls-id)))
      (list id
            (1- (line-number-at-pos))
            (- pos (line-beginning-position))
            (and id (taskls-view-ancestors-of id))))))

(defun taskls-view--save-points ()
  "Point and each window's point on the buffer, as rows."
  (cons (cons nil (taskls-view--point-record (point)))
        (mapcar (lambda (window)
                  (cons window (taskls-view--point-record (window-point window))))
                (get-buffer-window-list (current-buffer) nil t))))

(defun taskls-view-find-index (record)
  "The line index of the row a saved point RECORD belongs to now, or nil.
Its row's, wherever it went; else, when the row was hidden by
collapsing (its nearest ancestor still in the window is collapsed),
that ancestor's, as outline puts point on a folded heading."
  (or (and (car record) (taskls-view-index-of (car record)))
      (cl-loop for id in (nth 3 record)
               for index = (taskls-view-index-of id)
               when index
               return (and (taskls--true-p (plist-get (nth (- index taskls-view--start)
                                                            taskls-view--rows)
                                                       :collapsed))
                           index))))

(defun taskls-view--position (record)
  "The position RECORD (from `taskls-view--point-record') stands for now.
Its row's line (`taskls-view-find-index'), else the same line number
\(the row that took its place)."
  (let* ((found (taskls-view-find-index record))
         (index (or found (min (nth 1 record) (max 0 (1- taskls-view--lines))))))
    (save-excursion
      (taskls-view--goto-line index)
      (if (and found (not (equal (car record)
                                 (get-text-property (point) 'taskls-id))))
          (point)
        (min (+ (point) (nth 2 record)) (line-end-position))))))

(defun taskls-view--restore-points (saved)
  "Put point and the windows' points back on the rows in SAVED."
  (dolist (entry saved)
    (let ((position (taskls-view--position (cdr entry))))
      (if (car entry)
          (when (and (window-live-p (car entry))
                     (eq (window-buffer (car entry)) (current-buffer)))
            (set-window-point (car entry) position))
        (goto-char position)))))

;;; The tree

(defun taskls-view-row (index)
  "The row at the view index INDEX, or nil when it is not fetched."
  (and (>= index taskls-view--start)
       (nth (- index taskls-view--start) taskls-view--rows)))

(defun taskls-view--depth (row)
  "The depth of ROW, 0 for a header."
  (let ((depth (plist-get row :depth))) (if (natnump depth) depth 0)))

(defun taskls-view-block (first last)
  "The block a move by index of the rows FIRST to LAST takes.
Those rows plus the rows right after them deeper than the least depth
among them (their shown subtrees), as protocol.md \"Moving in the
tree\" says.  Return (END . DEPTH): the view index after the block
and that least depth; nil when a row of it is not fetched or the block
may run on past the fetched rows."
  (let ((least nil) (index first) (complete t))
    (while (and complete (<= index last))
      (let ((row (taskls-view-row index)))
        (if (null row)
            (setq complete nil)
          (when (equal (plist-get row :kind) "item")
            (setq least (min (or least most-positive-fixnum) (taskls-view--depth row))))))
      (setq index (1+ index)))
    (when complete
      (setq least (or least 0))
      (let ((end (1+ last)) (done nil))
        (while (and complete (not done))
          (let ((after (and (< end taskls-view--count) (taskls-view-row end))))
            (cond ((>= end taskls-view--count) (setq done t))
                  ((null after) (setq complete nil))
                  ((or (not (equal (plist-get after :kind) "item"))
                       (<= (taskls-view--depth after) least))
                   (setq done t))
                  (t (setq end (1+ end))))))
        (and complete (cons end least))))))

(defun taskls-view-landing-depth (from size to depth)
  "Return the depth a block is to land with at TO.
The block is SIZE rows at FROM, its tops at DEPTH; TO counts in the
view without it.  Its own DEPTH when the rows around TO allow it, else
the nearest they allow (protocol.md \"Allowed depths\"), so a move walks
a task one row at a time through the tree and keeps its level where
it can.  Nil when a row around TO is not fetched (the server then
takes its default)."
  (cl-flet ((without (index) (taskls-view-row (if (< index from) index (+ index size)))))
    (let ((prev (and (> to 0) (without (1- to))))
          (next (and (< to (- taskls-view--count size)) (without to))))
      (unless (or (and (> to 0) (null prev))
                  (and (< to (- taskls-view--count size)) (null next)))
        (let ((low (if (and next (equal (plist-get next :kind) "item")) (taskls-view--depth next) 0))
              (high (if (and prev (equal (plist-get prev :kind) "item"))
                        (+ (taskls-view--depth prev)
                           (if (taskls--true-p (plist-get prev :collapsed)) 0 1))
                      0)))
          (max low (min depth high)))))))

;;; Applying what the server says

(defun taskls-view--apply-to-rows (rows op)
  "ROWS (a list) after OP."
  (let ((kind (plist-get op :op)))
    (pcase kind
      ("insert" (let ((index (plist-get op :index)))
                  (append (cl-subseq rows 0 index) (list (plist-get op :row))
                          (nthcdr index rows))))
      ("remove" (let ((index (plist-get op :index)))
                  (append (cl-subseq rows 0 index) (nthcdr (1+ index) rows))))
      ("move" (let* ((from (plist-get op :from))
                     (row (or (plist-get op :row) (nth from rows)))
                     (rest (append (cl-subseq rows 0 from) (nthcdr (1+ from) rows)))
                     (to (plist-get op :to)))
                (append (cl-subseq rest 0 to) (list row) (nthcdr to rest))))
      ("update" (let ((copy (copy-sequence rows)))
                  (setf (nth (plist-get op :index) copy) (plist-get op :row))
                  copy))
      ("reset" (append (plist-get op :rows) nil))
      (_ rows))))

(defun taskls-view--apply-ops (ops)
  "Apply OPS to the rows and to exactly the lines they change."
  (let ((start taskls-view--start))
    (dolist (op ops)
      (let ((old-length (length taskls-view--rows)))
        (setq taskls-view--rows (taskls-view--apply-to-rows taskls-view--rows op))
        (pcase (plist-get op :op)
          ("insert" (taskls-view--write-rows (+ start (plist-get op :index))
                                             (list (plist-get op :row)) 0))
          ("remove" (taskls-view--replace (+ start (plist-get op :index)) 1 "" 0))
          ("move" (taskls-view--replace (+ start (plist-get op :from)) 1 "" 0)
           (taskls-view--write-rows (+ start (plist-get op :to))
                                    (list (nth (plist-get op :to) taskls-view--rows)) 0))
          ("update" (taskls-view--write-rows (+ start (plist-get op :index))
                                             (list (plist-get op :row)) 1))
          ("reset" (taskls-view--write-rows start taskls-view--rows old-length))))
      (taskls-view--count-stat :ops))))

(defun taskls-view--read-state (params)
  "Take the state members of PARAMS (a snapshot or a change)."
  (setq taskls-view--state (or (plist-get params :state) taskls-view--state)
        taskls-view--count (or (plist-get params :count) 0)
        taskls-view--progress (plist-get params :progress)
        taskls-view--error (plist-get params :error)
        taskls-view--empty (plist-get params :empty)))

(defun taskls-view--count-received (ops)
  "Count the rows OPS carry in the stats."
  (dolist (op ops)
    (cond ((plist-get op :rows) (taskls-view--count-stat :rows-received (length (plist-get op :rows))))
          ((plist-get op :row) (taskls-view--count-stat :rows-received)))))

(defun taskls-view--on-changed (params)
  "Apply PARAMS, a `view/changed' notification for this buffer's view."
  (let ((version (plist-get params :version)))
    (cond
     ((or taskls-view--resyncing (null taskls-view--version)
          (<= version taskls-view--version)))
     ((/= version (1+ taskls-view--version))
      (taskls-view--count-stat :gaps)
      (taskls-view-resync))
     (t
      (setq taskls-view--version version)
      (let* ((saved (taskls-view--save-points))
             (was-rows (eq taskls-view--mode 'rows))
             (old-start taskls-view--start)
             (old-end taskls-view--end)
             (window (plist-get params :window))
             (ops (append (plist-get params :ops) nil)))
        (taskls-view--read-state params)
        (when window
          (setq taskls-view--start (plist-get window :start)
                taskls-view--end (plist-get window :end)))
        (if (and was-rows (= old-start taskls-view--start) (= old-end taskls-view--end)
                 (null (taskls-view-state-line)))
            (progn (taskls-view--apply-ops ops)
                   (taskls-view--fix-tail))
          (dolist (op ops)
            (setq taskls-view--rows (taskls-view--apply-to-rows taskls-view--rows op)))
          (taskls-view--render-full))
        (taskls-view--count-received ops)
        (taskls-view--restore-points saved)
        (taskls-view-schedule-check))))))

(defun taskls-view-apply-snapshot (snapshot)
  "Replace the content of the buffer with SNAPSHOT (a view's snapshot)."
  (let* ((saved (taskls-view--save-points))
         (was-rows (eq taskls-view--mode 'rows))
         (old-count taskls-view--count)
         (old-start taskls-view--start)
         (old-shown (length taskls-view--rows))
         (window (plist-get snapshot :window)))
    (setq taskls-view--version (plist-get snapshot :version))
    (taskls-view--read-state snapshot)
    (setq taskls-view--sort (or (plist-get snapshot :sort) taskls-view--sort)
          taskls-view--filter (or (plist-get snapshot :filter) taskls-view--filter)
          taskls-view--sections (or (plist-get snapshot :sections) taskls-view--sections))
    (when window
      (setq taskls-view--start (plist-get window :start)
            taskls-view--end (plist-get window :end)))
    (setq taskls-view--rows (append (plist-get snapshot :rows) nil))
    (taskls-view--count-stat :rows-received (length taskls-view--rows))
    (if (and was-rows (= old-count taskls-view--count) (null (taskls-view-state-line)))
        ;; The old window's lines go back to placeholders; the new window's get rows.
        (let* ((first old-start)
               (last (min (+ old-start old-shown) taskls-view--count))
               (new-first taskls-view--start)
               (new-last (min (+ new-first (length taskls-view--rows)) taskls-view--count)))
          (when (< first new-first)
            (let ((upto (min last new-first)))
              (when (> upto first)
                (taskls-view--replace first (- upto first)
                                      (taskls-view--placeholders (- upto first)) (- upto first)))))
          (when (> last new-last)
            (let ((from (max first new-last)))
              (when (> last from)
                (taskls-view--replace from (- last from)
                                      (taskls-view--placeholders (- last from)) (- last from)))))
          (taskls-view--write-rows new-first taskls-view--rows (length taskls-view--rows)))
      (taskls-view--render-full))
    (taskls-view--restore-points saved)
    (taskls-view-update-name)))

(defun taskls-view-resync ()
  "Fetch a fresh snapshot after a version gap, silently."
  (when (and taskls-view--view (not taskls-view--resyncing))
    (setq taskls-view--resyncing t)
    (taskls-view--count-stat :resyncs)
    (let ((buffer (current-buffer)))
      (taskls-request "view/snapshot" (list :view taskls-view--view)
                      (lambda (snapshot)
                        (when (buffer-live-p buffer)
                          (with-current-buffer buffer
                            (setq taskls-view--resyncing nil)
                            (taskls-view-apply-snapshot snapshot))))
                      (lambda (_err)
                        (when (buffer-live-p buffer)
                          (with-current-buffer buffer (setq taskls-view--resyncing nil)))
                        nil)))))

(defun taskls-view--on-closed (params)
  "The view's list or smart list was deleted.
PARAMS is the `view/closed' notification; its `reason' is
`listDeleted' or `smartListDeleted'."
  (setq taskls-view--closed (or (plist-get params :reason) t))
  (taskls-unregister-view taskls-view--view)
  (taskls-view--render-full)
  (let ((smart (and (equal taskls-view--closed "smartListDeleted")
                    (taskls-smart-list (plist-get taskls-view--source :smartList)))))
    (taskls--say "the %s %s was deleted"
                 (if (equal taskls-view--closed "smartListDeleted") "smart list" "list")
                 (taskls-displayed (or (plist-get smart :name)
                                       (plist-get taskls-view--source :name) "")))))

(defun taskls-view--on-server-exit ()
  "The server stopped: say so in place of the rows."
  (setq taskls-view--stopped t
        taskls-view--view nil
        taskls-view--version nil
        taskls-view--window-request nil)
  (taskls-view--render-full))

;;; The window of rows the server sends

(defun taskls-view--display-window ()
  "Return a window showing the buffer, the selected one first."
  (if (eq (window-buffer (selected-window)) (current-buffer))
      (selected-window)
    (car (get-buffer-window-list (current-buffer) nil t))))

(defun taskls-view-shown-range (window)
  "Return the first and last line index (0-based, a cons) shown in WINDOW.
Computed from `window-start' and the window's height, and centred on
point when point is outside them (redisplay will scroll there), so it
is right before redisplay has run, and in batch mode."
  (let* ((height (max 1 (window-body-height window)))
         (first (with-current-buffer (window-buffer window)
                  (1- (line-number-at-pos (window-start window)))))
         (point-line (with-current-buffer (window-buffer window)
                       (1- (line-number-at-pos (window-point window))))))
    (when (or (< point-line first) (>= point-line (+ first height)))
      (setq first (max 0 (- point-line (/ height 2)))))
    (cons first (+ first height -1))))

(defun taskls-view-schedule-check ()
  "Check the window soon (after the command, or the scroll, is over)."
  (unless taskls-view--check-timer
    (let ((buffer (current-buffer)))
      (setq taskls-view--check-timer
            (run-at-time 0 nil
                         (lambda ()
                           (when (buffer-live-p buffer)
                             (with-current-buffer buffer
                               (setq taskls-view--check-timer nil)
                               (taskls--guard (taskls-view-check-width)
                                              (taskls-view-check-window))))))))))

(defun taskls-view-check-window ()
  "Move the server's window over the rows shown, plus the margin.
Nothing happens while what is shown is covered and away from the
window's edges, or while another move is under way."
  (let ((window (taskls-view--display-window)))
    (when (and window (eq taskls-view--mode 'rows) taskls-view--view
               (not taskls-view--closed) (not taskls-view--stopped))
      (let* ((shown (taskls-view-shown-range window))
             (first (car shown))
             (last (min (1+ (cdr shown)) taskls-view--count))
             (start taskls-view--start)
             (end taskls-view--end)
             (covered (and (>= first start) (<= last end)))
             (near-top (and (> start 0) (< (- first start) (/ taskls-margin 2))))
             (near-bottom (and (< end taskls-view--count) (< (- end last) (/ taskls-margin 2)))))
        (cond
         ((and covered (not near-top) (not near-bottom)))
         (taskls-view--window-request (setq taskls-view--window-again t))
         (t
          (let* ((new-start (max 0 (- first taskls-margin)))
                 (new-end (min (+ last taskls-margin) (+ new-start 1000))))
            (unless (and (= new-start start) (= new-end end))
              (taskls-view--request-window new-start new-end)))))))))

(defun taskls-view--request-window (start end)
  "Ask for the rows START to END (exclusive)."
  (let ((buffer (current-buffer)))
    (setq taskls-view--window-request (cons start end))
    (taskls-view--count-stat :window-requests)
    (taskls-request "view/setWindow"
                    (list :view taskls-view--view :window (list :start start :end end))
                    (lambda (snapshot)
                      (when (buffer-live-p buffer)
                        (with-current-buffer buffer
                          (setq taskls-view--window-request nil)
                          (when (equal (plist-get snapshot :view) taskls-view--view)
                            (taskls-view-apply-snapshot snapshot))
                          (when taskls-view--window-again
                            (setq taskls-view--window-again nil)
                            (taskls-view-schedule-check)))))
                    (lambda (_err)
                      (when (buffer-live-p buffer)
                        (with-current-buffer buffer (setq taskls-view--window-request nil)))
                      nil))))

;;; Opening and naming

(defun taskls-view-describe ()
  "The sort, filter and sections of the view, as words (or nil)."
  (let (parts)
    (let ((by (plist-get taskls-view--sort :by))
          (descending (equal (plist-get taskls-view--sort :direction) "descending")))
      (when (and by (or (not (equal by "manual")) descending))
        (push (concat "by " by (if descending " desc" "")) parts)))
    (when taskls-view--filter-text
      (push (format "filter \"%s\"" (taskls-displayed taskls-view--filter-text)) parts))
    (when (and taskls-view--sections (not (equal taskls-view--sections "none")))
      (push (concat "sections " taskls-view--sections) parts))
    (and parts (mapconcat #'identity (nreverse parts) ", "))))

(defun taskls-view-update-name ()
  "Show the sort, filter and sections in the mode line."
  (setq mode-line-process (let ((words (taskls-view-describe)))
                            (and words (concat " [" words "]"))))
  (force-mode-line-update))

(defun taskls-view--open-params ()
  "The params of `lists/open' for this buffer."
  (let* ((window (taskls-view--display-window))
         (height (if window (window-body-height window) 40)))
    (append (cond ((plist-get taskls-view--source :list)
                   (list :list (plist-get taskls-view--source :list)))
                  ((plist-get taskls-view--source :smartList)
                   (list :smartList (plist-get taskls-view--source :smartList)))
                  (t (list :group (plist-get taskls-view--source :group))))
            (and taskls-view--sort (list :sort taskls-view--sort))
            (and taskls-view--filter (list :filter taskls-view--filter))
            (and taskls-view--sections (list :sections taskls-view--sections))
            (list :window (list :start 0 :end (min 1000 (+ height taskls-margin)))))))

(defun taskls-view-open-view (&optional on-ready)
  "Open the server view for this buffer; call ON-READY in it when open."
  (let ((buffer (current-buffer)))
    (setq taskls-view--stopped nil
          taskls-view--closed nil
          taskls-view--version nil
          taskls-view--view nil
          taskls-view--window-request nil
          taskls-view--resyncing nil)
    (taskls-request
     "lists/open" (taskls-view--open-params)
     (lambda (snapshot)
       (if (not (buffer-live-p buffer))
           (taskls-request "view/close" (list :view (plist-get snapshot :view)) nil #'ignore)
         (with-current-buffer buffer
           (setq taskls-view--view (plist-get snapshot :view))
           (taskls-view-apply-snapshot snapshot)
           (taskls-register-view taskls-view--view buffer)
           (taskls-view-schedule-check)
           (when on-ready (funcall on-ready)))))
     (lambda (err)
       (when (buffer-live-p buffer)
         (with-current-buffer buffer
           (setq taskls-view--state "error"
                 taskls-view--error (list :message (plist-get err :message)))
           (taskls-view--render-full)))
       t))))

(defun taskls-view-close ()
  "Close the server view of this buffer (when the buffer is killed)."
  (when taskls-view--check-timer
    (cancel-timer taskls-view--check-timer)
    (setq taskls-view--check-timer nil))
  (when taskls-view--view
    (let ((view taskls-view--view))
      (taskls-unregister-view view)
      (setq taskls-view--view nil)
      (when (and (taskls-running-p) (not taskls-view--closed))
        (taskls-request "view/close" (list :view view) nil #'ignore)))))

(provide 'taskls-view)
;;; taskls-view.el ends here
