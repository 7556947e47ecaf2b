;;; taskls-render.el --- Rows of a taskls view as text -*- lexical-binding: t; -*-

;; Copyright (C) 2026 The taskls authors

;; This file is part of taskls.  See taskls.el for the package's headers.

;;; Commentary:

;; The text of a row (an item or a section header) with its faces, the
;; line that stands for a view's state, due dates said relative to the
;; client's day ("today", "in 3 days") from the wall clock the server
;; gives (`dueLocal'), and the columns of a row, measured in display
;; cells.  Stored text goes through `taskls-displayed' (taskls-client.el).

;;; Code:

(require 'cl-lib)
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

(defface taskls-repeat '((t :inherit font-lock-builtin-face))
  "The repeat mark ↻ after the due of a repeating task."
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

(defface taskls-warning '((t :inherit warning))
  "A list whose sync is offline, or waits for a confirmed sync."
  :group 'taskls)

(defface taskls-mark '((t :inherit warning))
  "Marked rows."
  :group 'taskls)

(defface taskls-fold '((t :inherit font-lock-builtin-face))
  "The fold markers of tasks with subtasks (collapsed, expanded)."
  :group 'taskls)

(defface taskls-count '((t :inherit font-lock-constant-face))
  "How many of a task's subtasks are done, after its title (1/3)."
  :group 'taskls)

(defface taskls-context '((t :inherit shadow))
  "Context rows: shown only as the parent of a task the filter matches."
  :group 'taskls)

(defcustom taskls-fold-markers '("▸" . "▾")
  "The fold markers of a task with subtasks: (COLLAPSED . EXPANDED).
A task without subtasks has a blank in their place."
  :type '(cons (string :tag "Collapsed") (string :tag "Expanded"))
  :group 'taskls)

(defcustom taskls-placeholder "~"
  "The text of a row not fetched yet."
  :type 'string
  :group 'taskls)

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

(defun taskls--instant-parts (due &optional due-local)
  "The local day (`YYYY-MM-DD'), time (`HH:MM') and instant of the due DUE.
DUE-LOCAL (the row's `dueLocal', `YYYY-MM-DDThh:mm') is the wall-clock
reading of DUE in the client's zone, as the server says it: the day
and time come from it, never from the offset DUE is written with.
Without it (an older server), they are computed in `taskls-time-zone',
else the machine's zone.  Nil when DUE is not an instant."
  (when (string-match-p "T" due)
    (let ((time (ignore-errors (parse-iso8601-time-string due))))
      (when time
        (if (and (stringp due-local)
                 (string-match "\\`\\([0-9]\\{4\\}-[0-9][0-9]-[0-9][0-9]\\)T\\([0-9][0-9]:[0-9][0-9]\\)"
                               due-local))
            (list (match-string 1 due-local) (match-string 2 due-local) time)
          (let ((zone (or taskls-time-zone (current-time-zone))))
            (when (consp zone) (setq zone (car zone)))
            (list (format-time-string "%Y-%m-%d" time zone)
                  (format-time-string "%H:%M" time zone)
                  time)))))))

(defun taskls--passed-today-p (time)
  "Whether TIME, on the client's day, has passed.
The editor's clock is asked only when it agrees with the server on
the day (a server on a manual clock, or in another zone, decides
alone: a time earlier today is then not shown overdue)."
  (let* ((now (current-time))
         (zone (or taskls-time-zone (car (current-time-zone now)))))
    (and (equal (format-time-string "%Y-%m-%d" now zone) (taskls-today))
         (time-less-p time now))))

(defun taskls-due-text (due done &optional due-local)
  "DUE said relative to the client's day, and its face, as a cons.
DONE non-nil: the task is done and never shown overdue.  A day-only
due reads \"tomorrow\"; an instant reads \"tomorrow 09:30\", its day
and time taken from DUE-LOCAL (the row's `dueLocal') when given."
  (let* ((today (taskls--day-number (taskls-today)))
         (instant (taskls--instant-parts due due-local))
         (date (if instant (car instant) (substring due 0 (min 10 (length due)))))
         (day (taskls--day-number date)))
    (if (not (and today day))
        (cons (taskls-displayed due) 'taskls-due)
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

(defun taskls-due-phrase (due &optional due-local)
  "Return DUE as the words to type for it in quick entry.
The grammar reads them back as the same due: the day (`2026-11-27'),
or the day and the wall-clock time in the client's zone (`2026-11-27
17:30', from DUE-LOCAL, the `dueLocal' of an instant); \"\" for no
due."
  (cond ((not (stringp due)) "")
        ((and (stringp due-local)
              (string-match "\\`\\([0-9-]\\{10\\}\\)T\\([0-9][0-9]:[0-9][0-9]\\)" due-local))
         (concat (match-string 1 due-local) " " (match-string 2 due-local)))
        ((string-match-p "T" due)
         (let ((instant (taskls--instant-parts due)))
           (if instant (concat (car instant) " " (nth 1 instant)) due)))
        (t due)))

;;; Rows

(defconst taskls--priority-marks
  '(("low" . "!") ("medium" . "!!") ("high" . "!!!"))
  "The marks of the priorities.")

(defun taskls--face (text face)
  "TEXT with FACE; TEXT as it is when FACE is nil."
  (if face (propertize text 'face face) text))

(defconst taskls-repeat-mark "↻"
  "What follows the due of a repeating task (a row whose `repeat' is set).")

(defconst taskls-columns '((due . 19) (priority . 3) (list . 14) (tags . 12))
  "The cells of the columns after the title.
Each column starts at the same cell on every row, whatever the row
holds, so a column never pushes the next.  `due' fits the widest label
a due can make (\"13 days ago 09:30\") and the repeat mark after it
\(`taskls-repeat-mark'); `list' is the list name of a row in a smart
group or smart list, in parentheses, cut with …; the tags come last
and take what they need, `tags' being the cells kept for them when the
title's width is reckoned.")

(defun taskls--due-column (row done)
  "The text of the due column of ROW (DONE: the task is done), with faces.
The due relative to the client's day, then `taskls-repeat-mark' when
the task repeats; \"\" for neither."
  (let* ((due (plist-get row :due))
         (said (and (stringp due) (taskls-due-text due done (plist-get row :dueLocal))))
         (text (if said (taskls--face (car said) (cdr said)) "")))
    (if (plist-get row :repeat)
        (concat text (if said " " "") (taskls--face taskls-repeat-mark 'taskls-repeat))
      text)))

(defun taskls--fold-cells ()
  "The display cells of the fold column: the wider marker.
\"▸\" and \"▾\" are East Asian Ambiguous, two cells in CJK language
environments."
  (max 1 (string-width (car taskls-fold-markers)) (string-width (cdr taskls-fold-markers))))

(defun taskls--row-prefix-cells ()
  "The cells before the title of a top-level row.
The mark, a space, the fold column, a space, the check box, a space;
a subtask's row has two more per level (its indentation)."
  (+ 1 1 (taskls--fold-cells) 1 3 1))

(defconst taskls-min-title-cells 10
  "The fewest cells a title keeps however deep its row is.
Past that, the indentation pushes the columns after the title right
rather than cutting the title to nothing.")

(defun taskls--column (name)
  "The cells of the column NAME (see `taskls-columns')."
  (cdr (assq name taskls-columns)))

(defun taskls-title-width (cells &optional show-list)
  "The cells of the title column in a window whose text area is CELLS wide.
What the mark, the fold column, the check box and the columns after
the title leave, at least 20.  SHOW-LIST: rows show their list (a
smart group).  A row at depth D gives 2D of them to its indentation
\(see `taskls-row-text')."
  (let ((other (+ (taskls--row-prefix-cells)
                  2 (taskls--column 'due) 2 (taskls--column 'priority) 2 (taskls--column 'tags)
                  (if show-list (+ 2 (taskls--column 'list)) 0))))
    (max 20 (- cells other))))

(defun taskls-truncate (text width)
  "TEXT cut to at most WIDTH display cells, ending in … when it was cut.
Cells, not characters: CJK and most emoji take two."
  (if (<= (string-width text) width)
      text
    (truncate-string-to-width text (max width 1) nil nil "…")))

(defun taskls--padded (text width)
  "TEXT padded with spaces to WIDTH display cells (never cut)."
  (let ((cells (string-width text)))
    (if (>= cells width) text (concat text (make-string (- width cells) ?\s)))))

(defun taskls--subtask-tally (row)
  "How many of ROW's subtasks are done, as \"1/3\"; nil without subtasks."
  (let ((children (or (plist-get row :children) 0)))
    (and (numberp children) (> children 0)
         (format "%d/%d" (- children (or (plist-get row :openChildren) 0)) children))))

(defun taskls-row-text (row &optional show-list marked title-width)
  "The line of ROW (a row plist), without its newline, with faces.
SHOW-LIST adds a column with the list's name (smart groups, smart
lists); MARKED starts the line with *.  Then the row's place in the
tree: two spaces per level of its `depth', the fold column (a marker
of `taskls-fold-markers' when it `hasChildren', else blank) and a
space, then the check box.  The title column takes TITLE-WIDTH display
cells \(default: as in an 80-column window) less the indentation,
never fewer than `taskls-min-title-cells': the title, cut with …, then
how many of its subtasks are done (\"1/3\", when it has any), then the
notes mark +, padded when a column follows.  Then the due (from the
row's `dueLocal', then ↻ when the task repeats), the priority, the
list and the tags, each in its column of `taskls-columns'; nothing
trails the last column the row has.  A context row (in the view only
as the parent of a match) is
dimmed whole (`taskls-context') but for its marker.  Stored text is
shown through `taskls-displayed'."
  (let ((kind (plist-get row :kind)))
    (if (equal kind "header")
        (taskls--face (format "%s (%d)" (taskls-displayed (or (plist-get row :title) ""))
                              (or (plist-get row :count) 0))
                      'taskls-header)
      (let* ((done (taskls--true-p (plist-get row :done)))
             (depth (let ((value (plist-get row :depth))) (if (natnump value) value 0)))
             (indent (make-string (* 2 depth) ?\s))
             (marker (if (taskls--true-p (plist-get row :hasChildren))
                         (if (taskls--true-p (plist-get row :collapsed))
                             (car taskls-fold-markers)
                           (cdr taskls-fold-markers))
                       ""))
             (width (max taskls-min-title-cells
                         (- (or title-width (taskls-title-width 79 show-list)) (* 2 depth))))
             (notes (taskls--true-p (plist-get row :hasNotes)))
             (tally (taskls--subtask-tally row))
             (room (- width (if tally (1+ (length tally)) 0) (if notes 2 0)))
             (title (taskls-truncate (taskls-displayed (or (plist-get row :title) ""))
                                     (max 1 room)))
             (priority (or (cdr (assoc (plist-get row :priority) taskls--priority-marks)) ""))
             (tags (append (plist-get row :tags) nil))
             (columns
              (append
               (list (list (taskls--due-column row done) nil (taskls--column 'due))
                     (list priority 'taskls-priority (taskls--column 'priority)))
               (when show-list
                 (let ((name (taskls-list-name (plist-get row :list))))
                   (list (list (if name
                                   (concat "(" (taskls-truncate (taskls-displayed name)
                                                                (- (taskls--column 'list) 2))
                                           ")")
                                 "")
                               'taskls-list (taskls--column 'list)))))
               (list (list (mapconcat (lambda (tag) (concat "#" (taskls-displayed tag))) tags " ")
                           'taskls-tag 0))))
             (last (cl-position-if-not (lambda (column) (equal (car column) "")) columns
                                       :from-end t))
             (cells (+ (string-width title) (if tally (1+ (length tally)) 0) (if notes 2 0)))
             (parts (list (if marked (taskls--face "*" 'taskls-mark) " ")
                          " "
                          indent
                          (taskls--padded (taskls--face marker 'taskls-fold) (taskls--fold-cells))
                          " "))
             (gutter (length (apply #'concat parts))))
        (setq parts (append parts
                            (list (if done "[x]" "[ ]")
                                  " "
                                  (taskls--face title (if done 'taskls-done (if marked 'taskls-mark nil))))))
        (when tally
          (setq parts (append parts (list " " (taskls--face tally 'taskls-count)))))
        (when notes
          (setq parts (append parts (list " " (taskls--face "+" 'taskls-notes)))))
        (when (and last (< cells width))
          (setq parts (append parts (list (make-string (- width cells) ?\s)))))
        (when last
          (cl-loop for column in columns for index from 0 to last
                   do (let ((text (car column)))
                        (setq parts (append parts
                                            (list "  "
                                                  (if (< index last)
                                                      (taskls--padded (taskls--face text (nth 1 column))
                                                                      (nth 2 column))
                                                    (taskls--face text (nth 1 column)))))))))
        (let ((line (apply #'concat parts)))
          (when (taskls--true-p (plist-get row :context))
            (put-text-property gutter (length line) 'face 'taskls-context line))
          line)))))

(defun taskls-placeholder-text ()
  "The line of a row not fetched yet."
  (concat "  " (taskls--face taskls-placeholder 'taskls-placeholder)))

(provide 'taskls-render)
;;; taskls-render.el ends here
