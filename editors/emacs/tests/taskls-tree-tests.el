;;; taskls-tree-tests.el --- ERT tests of subtasks in the list buffer -*- lexical-binding: t; -*-

;;; Commentary:

;; Subtasks (issue 18) against the real server: rows indented by depth
;; with fold markers and done/total counts, context rows dimmed; TAB,
;; S-TAB and C-u TAB (`view/collapse', `view/expand'); M-<right> and
;; M-<left> (`items/indent', `items/outdent') with refusals in words; A,
;; o and O adding in the tree; M-n and M-p carrying subtrees.  Every
;; change reaches the buffer as ops on the changed lines (no full
;; redraw), and the tree is checked in the store too (`items/get').

;;; Code:

(require 'cl-lib)
(require 'ert)
(require 'taskls)
(require 'taskls-test-helpers)

(defun taskls-tree-test-seed (name &rest spec)
  "Create a list NAME whose items are SPEC, in tree order.
Each is a title, or (TITLE :parent PARENT-TITLE FIELDS...).  Return
\(LIST . IDS), IDS an alist from title to id."
  (let* ((list (plist-get (plist-get (taskls-call "lists/create" (list :name name)) :list) :id))
         ids)
    (dolist (entry spec)
      (let* ((title (if (stringp entry) entry (car entry)))
             (fields (if (stringp entry) nil (copy-sequence (cdr entry))))
             (parent (plist-get fields :parent)))
        (when parent (setq fields (plist-put fields :parent (cdr (assoc parent ids)))))
        (push (cons title (plist-get (plist-get (taskls-call "items/create"
                                                             (append (list :list list :title title) fields))
                                                :item)
                                     :id))
              ids)))
    (taskls-test-wait (lambda () (taskls-list-name list)) "the overview to know the list")
    (cons list (nreverse ids))))

(defconst taskls-tree-test-example
  '("A" ("A1" :parent "A") ("A1a" :parent "A1") ("A2" :parent "A") "B")
  "The tree of protocol.md's example.")

(defun taskls-tree-test-open (seed)
  "Open the list of SEED (from `taskls-tree-test-seed'), shown in the selected window."
  (let ((buffer (taskls-test-open (list :list (car seed) :name "Trip"))))
    (set-window-buffer (selected-window) buffer)
    (set-buffer buffer)
    buffer))

(defun taskls-tree-test-shape ()
  "The rows of the current buffer as \"TITLE:DEPTH\" words."
  (mapconcat (lambda (row) (format "%s:%s" (plist-get row :title) (plist-get row :depth)))
             taskls-view--rows " "))

(defun taskls-tree-test-at-point ()
  "The title of the row at point."
  (plist-get (taskls-view-row-at) :title))

(defun taskls-tree-test-settle (predicate what)
  "Wait for PREDICATE (saying WHAT), then check the buffer is its rows exactly."
  (taskls-test-wait predicate what)
  (taskls-test-check-buffer))

(defun taskls-tree-test-parent (id)
  "The parent of the item ID in the store (nil at the top level)."
  (plist-get (taskls-call "items/get" (list :id id)) :parent))

(defun taskls-tree-test-face-at (line text)
  "The face on the first TEXT of LINE (0-based) in the current buffer."
  (save-excursion
    (taskls-view--goto-line line)
    (search-forward text (line-end-position))
    (get-text-property (match-beginning 0) 'face)))

(ert-deftest taskls-tree-renders-depth-markers-counts-and-context ()
  "Rows are indented by depth with fold markers and done/total counts; context rows dimmed."
  (taskls-test-with-server nil
    (let* ((seed (taskls-tree-test-seed "Trip" "A" '("A1" :parent "A") '("A1a" :parent "A1" :done t)
                                        '("A2" :parent "A" :due "2026-11-25") '("B" :due "2026-11-25")))
           (buffer (taskls-tree-test-open seed)))
      (let ((lines (taskls-test-raw-lines)))
        (should (equal '("  ▾ [ ] A 0/2" "    ▾ [ ] A1 1/1" "        [x] A1a")
                       (cl-subseq lines 0 3)))
        (should (string-match-p "\\`      \\[ \\] A2 +today\\'" (nth 3 lines)))
        (should (string-match-p "\\`    \\[ \\] B +today\\'" (nth 4 lines)))
        ;; The due column starts at the same cell whatever the depth.
        (should (= (string-match "today" (nth 3 lines)) (string-match "today" (nth 4 lines)))))
      (should (eq 'taskls-fold (taskls-tree-test-face-at 0 "▾")))
      (should (eq 'taskls-count (taskls-tree-test-face-at 0 "0/2")))
      (should (eq 'taskls-done (taskls-tree-test-face-at 2 "A1a")))
      ;; A subtask done counts at once: its line and its parent's, nothing else.
      (let ((written (taskls-view-stat :lines-written))
            (full (taskls-view-stat :full-renders)))
        (taskls-test-goto-title "A2")
        (taskls-test-after-change buffer (taskls-test-keys "x"))
        (taskls-tree-test-settle (lambda () (equal "  ▾ [ ] A 1/2" (car (taskls-test-raw-lines))))
                                 "the count of A")
        (should (= 2 (- (taskls-view-stat :lines-written) written)))
        (should (= full (taskls-view-stat :full-renders))))
      ;; A filter shows the parents of a match, dimmed (but for their markers).
      (setq taskls-test-answers '("A1a"))
      (taskls-test-after-change buffer (taskls-test-keys "/"))
      (should (equal "A:0 A1:1 A1a:2" (taskls-tree-test-shape)))
      (should (eq 'taskls-context (taskls-tree-test-face-at 0 "[ ] A")))
      (should (eq 'taskls-context (taskls-tree-test-face-at 1 "A1 1/1")))
      (should (eq 'taskls-fold (taskls-tree-test-face-at 1 "▾")))
      (should (eq 'taskls-done (taskls-tree-test-face-at 2 "A1a")))
      (taskls-test-check-buffer)
      ;; The deepest row keeps `taskls-min-title-cells' of title; the columns are pushed right.
      (should (equal (concat "  " (make-string 30 ?\s) "  [ ] Level 15  "
                             "  " (make-string (taskls--column 'due) ?\s) "  !!!")
                     (substring-no-properties
                      (taskls-row-text '(:kind "item" :title "Level 15" :depth 15 :priority "high")
                                       nil nil 20)))))))

(ert-deftest taskls-tree-folds-with-tab-through-the-server ()
  "TAB, S-TAB and C-u TAB collapse and expand by ops; point keeps its task."
  (taskls-test-with-server nil
    (let* ((seed (apply #'taskls-tree-test-seed "Trip" taskls-tree-test-example))
           (buffer (taskls-tree-test-open seed))
           (full (taskls-view-stat :full-renders)))
      (taskls-test-goto-title "A1")
      (let ((written (taskls-view-stat :lines-written)))
        (taskls-test-keys "TAB")
        (taskls-tree-test-settle (lambda () (= 4 taskls-view--count)) "A1 collapsed")
        (should (equal "A:0 A1:1 A2:1 B:0" (taskls-tree-test-shape)))
        (should (= 4 (length (taskls-test-raw-lines))))
        (should (equal "    ▸ [ ] A1 0/1" (nth 1 (taskls-test-raw-lines))))
        (should (= 1 (- (taskls-view-stat :lines-written) written))))
      (should (equal "A1" (taskls-tree-test-at-point)))
      (taskls-test-keys "TAB")
      (taskls-tree-test-settle (lambda () (= 5 taskls-view--count)) "A1 expanded")
      (should (equal "A1" (taskls-tree-test-at-point)))
      ;; TAB on a task without subtasks collapses its parent; point goes there.
      (taskls-test-goto-title "A1a")
      (taskls-test-keys "TAB")
      (taskls-tree-test-settle (lambda () (= 4 taskls-view--count)) "TAB on a leaf")
      (should (equal "A1" (taskls-tree-test-at-point)))
      ;; S-TAB: every task collapsed (A1 too), point on the row standing for its task.
      (taskls-test-keys "<backtab>")
      (taskls-tree-test-settle (lambda () (= 2 taskls-view--count)) "S-TAB collapses all")
      (should (equal '("  ▸ [ ] A 0/2" "    [ ] B") (taskls-test-raw-lines)))
      (should (equal "A" (taskls-tree-test-at-point)))
      (taskls-test-keys "TAB")
      (taskls-tree-test-settle (lambda () (= 4 taskls-view--count)) "TAB after S-TAB")
      (should (equal "A:0 A1:1 A2:1 B:0" (taskls-tree-test-shape)))
      (taskls-test-keys "<backtab>")
      (taskls-tree-test-settle (lambda () (= 2 taskls-view--count)) "S-TAB with A expanded")
      (taskls-test-keys "<backtab>")
      (taskls-tree-test-settle (lambda () (= 5 taskls-view--count)) "S-TAB expands all")
      (should (equal "A" (taskls-tree-test-at-point)))
      (taskls-test-goto-title "A1a")
      (taskls-test-keys "C-u TAB")
      (taskls-tree-test-settle (lambda () (= 2 taskls-view--count)) "C-u TAB collapses all")
      (should (equal "A" (taskls-tree-test-at-point)))
      (should (= full (taskls-view-stat :full-renders)))
      ;; The server keeps it per view: another buffer on the list shows every row.
      (let ((other (taskls-open (list :list (car seed) :name "Trip") t)))
        (taskls-test-wait (lambda () (buffer-local-value 'taskls-view--version other)) "the other buffer")
        (should (= 5 (buffer-local-value 'taskls-view--count other))))
      (ignore buffer))))

(ert-deftest taskls-tree-indents-and-outdents-with-meta-arrows ()
  "M-<right> and M-<left> indent and outdent; counts follow; refusals are one message."
  (taskls-test-with-server nil
    (let* ((seed (taskls-tree-test-seed "Trip" "A" "B" "C" "D"))
           (ids (cdr seed))
           (buffer (taskls-tree-test-open seed))
           (full (taskls-view-stat :full-renders)))
      (taskls-test-goto-title "B")
      (taskls-test-keys "M-<right>")
      (taskls-tree-test-settle (lambda () (equal "A:0 B:1 C:0 D:0" (taskls-tree-test-shape))) "B indented")
      (should (equal '("  ▾ [ ] A 0/1" "      [ ] B" "    [ ] C" "    [ ] D") (taskls-test-raw-lines)))
      (should (equal (cdr (assoc "A" ids)) (taskls-tree-test-parent (cdr (assoc "B" ids)))))
      (should (equal "B" (taskls-tree-test-at-point)))
      ;; Marked tasks together.
      (taskls-test-goto-title "C")
      (taskls-test-keys "m m")
      (taskls-test-keys "M-<right>")
      (taskls-tree-test-settle (lambda () (equal "A:0 B:1 C:1 D:1" (taskls-tree-test-shape)))
                               "C and D indented")
      (should (equal "  ▾ [ ] A 0/3" (car (taskls-test-raw-lines))))
      (taskls-test-goto-title "C")
      (taskls-test-keys "M-<right>")
      (taskls-tree-test-settle (lambda () (equal "A:0 B:1 C:2 D:1" (taskls-tree-test-shape))) "C under B")
      (should (equal '("  ▾ [ ] A 0/2" "    ▾ [ ] B 0/1" "        [ ] C" "      [ ] D")
                     (taskls-test-raw-lines)))
      (should (equal "C" (taskls-tree-test-at-point)))
      (taskls-test-keys "M-<left>")
      (taskls-tree-test-settle (lambda () (equal "A:0 B:1 C:1 D:1" (taskls-tree-test-shape))) "C outdented")
      (should (equal "C" (taskls-tree-test-at-point)))
      (should (equal (cdr (assoc "A" ids)) (taskls-tree-test-parent (cdr (assoc "C" ids)))))
      ;; Refusals, in words, and nothing changes.
      (let ((version taskls-view--version))
        (taskls-test-goto-title "A")
        (taskls-test-keys "M-<right>")
        (taskls-test-wait (lambda () (taskls-test-said "no task above it")) "the refusal of indent")
        (should (taskls-test-said
                 "\\`taskls: cannot indent \"A\": no task above it at its level to become a subtask of\\'"))
        (taskls-test-keys "M-<left>")
        (taskls-test-wait (lambda () (taskls-test-said "top level")) "the refusal of outdent")
        (should (taskls-test-said "\\`taskls: cannot outdent \"A\": it is already at the top level\\'"))
        (should (= version taskls-view--version)))
      ;; Back to the top level: A loses its marker and count.
      (let ((transient-mark-mode t))
        (taskls-test-goto-title "B")
        (push-mark (point) t t)
        (taskls-test-goto-title "D")
        (end-of-line)
        (activate-mark)
        (should (equal '("B" "C" "D") (mapcar (lambda (row) (plist-get row :title))
                                              (taskls-list--region-rows))))
        (taskls-test-keys "M-<left>")
        (deactivate-mark))
      (taskls-tree-test-settle (lambda () (equal "A:0 B:0 C:0 D:0" (taskls-tree-test-shape))) "region outdented")
      (should (equal '("    [ ] A" "    [ ] B" "    [ ] C" "    [ ] D") (taskls-test-raw-lines)))
      (should (= full (taskls-view-stat :full-renders)))
      (ignore buffer))))

(ert-deftest taskls-tree-adds-subtasks-and-below-in-the-tree ()
  "A adds a first subtask (expanding a collapsed task); o adds the row below; O above."
  (taskls-test-with-server nil
    (let* ((seed (apply #'taskls-tree-test-seed "Trip" taskls-tree-test-example))
           (ids (cdr seed))
           (buffer (taskls-tree-test-open seed)))
      (taskls-test-goto-title "A1")
      (setq taskls-test-answers '("Sub !high"))
      (taskls-test-after-change buffer (taskls-test-keys "A"))
      (should (equal "A:0 A1:1 Sub:2 A1a:2 A2:1 B:0" (taskls-tree-test-shape)))
      (should (equal "Sub" (taskls-tree-test-at-point)))
      (should (equal "high" (plist-get (taskls-view-row-at) :priority)))
      ;; o on the last subtask of A1: a subtask of A1 after it.
      (taskls-test-goto-title "A1a")
      (setq taskls-test-answers '("After"))
      (taskls-test-after-change buffer (taskls-test-keys "o"))
      (should (equal "A:0 A1:1 Sub:2 A1a:2 After:2 A2:1 B:0" (taskls-tree-test-shape)))
      (should (equal "After" (taskls-tree-test-at-point)))
      ;; o on a task whose subtasks are shown: its first subtask.
      (taskls-test-goto-title "A")
      (setq taskls-test-answers '("First"))
      (taskls-test-after-change buffer (taskls-test-keys "o"))
      (should (equal "A:0 First:1 A1:1 Sub:2 A1a:2 After:2 A2:1 B:0" (taskls-tree-test-shape)))
      ;; O: above, at its level.
      (taskls-test-goto-title "A2")
      (setq taskls-test-answers '("Before A2"))
      (taskls-test-after-change buffer (taskls-test-keys "O"))
      (should (equal "A:0 First:1 A1:1 Sub:2 A1a:2 After:2 Before A2:1 A2:1 B:0" (taskls-tree-test-shape)))
      ;; o on a collapsed task: its next sibling, after its hidden subtasks.
      (taskls-test-goto-title "A1")
      (taskls-test-keys "TAB")
      (taskls-test-wait (lambda () (equal "A:0 First:1 A1:1 Before A2:1 A2:1 B:0" (taskls-tree-test-shape)))
                        "A1 collapsed")
      (setq taskls-test-answers '("Next"))
      (taskls-test-after-change buffer (taskls-test-keys "o"))
      (should (equal "A:0 First:1 A1:1 Next:1 Before A2:1 A2:1 B:0" (taskls-tree-test-shape)))
      ;; A on a collapsed task expands it first, so the new subtask is seen.
      (taskls-test-goto-title "A1")
      (setq taskls-test-answers '("Seen"))
      (taskls-test-after-change buffer (taskls-test-keys "A"))
      (taskls-test-wait (lambda () (equal "A:0 First:1 A1:1 Seen:2 Sub:2 A1a:2 After:2 Next:1 Before A2:1 A2:1 B:0"
                                          (taskls-tree-test-shape)))
                        "the subtask of an expanded A1")
      (should (equal "Seen" (taskls-tree-test-at-point)))
      (should (equal (cdr (assoc "A1" ids))
                     (taskls-tree-test-parent (plist-get (taskls-view-row-at) :id))))
      ;; A on a leaf: its first subtask.
      (taskls-test-goto-title "B")
      (setq taskls-test-answers '("Under B"))
      (taskls-test-after-change buffer (taskls-test-keys "A"))
      (should (string-suffix-p "B:0 Under B:1" (taskls-tree-test-shape)))
      (should (equal "  ▾ [ ] B 0/1" (car (last (taskls-test-raw-lines) 2))))
      (taskls-test-check-buffer))))

(ert-deftest taskls-tree-moves-subtrees-keeping-their-level ()
  "M-n and M-p move a task with its subtree, at its level where allowed."
  (taskls-test-with-server nil
    (let* ((seed (apply #'taskls-tree-test-seed "Trip" taskls-tree-test-example))
           (ids (cdr seed))
           (buffer (taskls-tree-test-open seed))
           (full (taskls-view-stat :full-renders)))
      (taskls-test-goto-title "A1")
      (taskls-test-after-change buffer (taskls-test-keys "M-n"))
      (taskls-tree-test-settle (lambda () (equal "A:0 A2:1 A1:1 A1a:2 B:0" (taskls-tree-test-shape)))
                               "A1 and A1a below A2")
      (should (equal "A1" (taskls-tree-test-at-point)))
      (should (equal (cdr (assoc "A" ids)) (taskls-tree-test-parent (cdr (assoc "A1" ids)))))
      ;; Past the last task at a higher level: its subtask.
      (taskls-test-after-change buffer (taskls-test-keys "M-<down>"))
      (taskls-tree-test-settle (lambda () (equal "A:0 A2:1 B:0 A1:1 A1a:2" (taskls-tree-test-shape)))
                               "A1 under B")
      (should (equal (cdr (assoc "B" ids)) (taskls-tree-test-parent (cdr (assoc "A1" ids)))))
      (should (equal (cdr (assoc "A1" ids)) (taskls-tree-test-parent (cdr (assoc "A1a" ids)))))
      (taskls-test-after-change buffer (taskls-test-keys "M-p"))
      (taskls-tree-test-settle (lambda () (equal "A:0 A2:1 A1:1 A1a:2 B:0" (taskls-tree-test-shape)))
                               "A1 back under A")
      (should (equal "A1" (taskls-tree-test-at-point)))
      ;; A collapsed task carries its hidden subtree.
      (taskls-test-goto-title "A")
      (taskls-test-keys "TAB")
      (taskls-test-wait (lambda () (equal "A:0 B:0" (taskls-tree-test-shape))) "A collapsed")
      (taskls-test-after-change buffer (taskls-test-keys "M-n"))
      (taskls-tree-test-settle (lambda () (equal "B:0 A:0" (taskls-tree-test-shape))) "A below B")
      (should (equal "A" (taskls-tree-test-at-point)))
      (taskls-test-keys "TAB")
      (taskls-tree-test-settle (lambda () (equal "B:0 A:0 A2:1 A1:1 A1a:2" (taskls-tree-test-shape)))
                               "A's subtree came along")
      (should (= full (taskls-view-stat :full-renders))))))

(ert-deftest taskls-tree-keeps-point-on-its-task-when-a-fold-takes-it-far ()
  "Folding all far from the rows it leaves fetched: `view/locate' finds point's task."
  (taskls-test-with-server nil
    (let* ((spec (append '("P")
                         (mapcar (lambda (i) (list (format "P%d" i) :parent "P")) (number-sequence 1 200))
                         (mapcar (lambda (i) (format "Z%d" i)) (number-sequence 1 50))))
           (seed (apply #'taskls-tree-test-seed "Long" spec))
           (buffer (taskls-test-open (list :list (car seed) :name "Long"))))
      (set-window-buffer (selected-window) buffer)
      (set-buffer buffer)
      (taskls-test-wait (lambda () (and taskls-view--version (= 251 taskls-view--count))) "the long list")
      (should (< taskls-view--end 251))
      ;; Point on Z25 (index 225), the fetched rows moved down to it.
      (taskls-view--goto-line 225)
      (set-window-start (selected-window) (point))
      (set-window-point (selected-window) (point))
      (taskls-view-schedule-check)
      (taskls-test-wait (lambda () (taskls-view-row 225)) "the rows around Z25")
      (should (equal "Z25" (taskls-tree-test-at-point)))
      (should (> taskls-view--start 25))
      ;; Collapsing every task takes Z25 up to index 25, above the fetched rows.
      (call-interactively #'taskls-collapse-all)
      (taskls-tree-test-settle (lambda () (and (= 51 taskls-view--count) (equal "Z25" (taskls-tree-test-at-point))))
                               "collapsed: point on Z25")
      (should (= 25 (1- (line-number-at-pos))))
      (should (= 1 (taskls-view-stat :located)))
      ;; Expanding them takes it back down to 225, below them.
      (taskls-test-wait (lambda () (taskls-view-row 0)) "the rows around the top")
      (call-interactively #'taskls-expand-all)
      (taskls-tree-test-settle (lambda () (and (= 251 taskls-view--count) (equal "Z25" (taskls-tree-test-at-point))))
                               "expanded: point on Z25")
      (should (= 225 (1- (line-number-at-pos))))
      (should (= 2 (taskls-view-stat :located))))))

(provide 'taskls-tree-tests)
;;; taskls-tree-tests.el ends here
