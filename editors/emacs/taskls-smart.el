;;; taskls-smart.el --- Smart lists: filters saved with a name -*- lexical-binding: t; -*-

;; Copyright (C) 2026 The taskls authors

;; This file is part of taskls.  See taskls.el for the package's headers.

;;; Commentary:

;; A smart list is a filter saved with a name, over every list or some
;; (`smartLists/*').  The overview shows them with live counts between
;; the smart groups and the lists, opens one like a group (`lists/open'
;; with `smartList'), renames (e) and deletes (k, asking first) them; `F'
;; in a list buffer saves the buffer's filter as one.  A buffer on a
;; smart list that is deleted says so, as one on a deleted list does.

;;; Code:

(require 'cl-lib)
(require 'subr-x)
(require 'taskls-client)
(require 'taskls-view)
(require 'taskls-list)

(define-key taskls-list-mode-map (kbd "F") #'taskls-save-filter)

(defun taskls-smart--quoted (name)
  "NAME in double quotes, escaped as stored text is shown."
  (concat "\"" (taskls-displayed (or name "")) "\""))

(defun taskls-smart--join (a b)
  "The filter matching what both A and B (filter plists) match, or a symbol.
Members of one only are kept; a member both give must be equal, else
the result is the keyword of that member (they cannot be one filter)."
  (let ((joined (copy-sequence a)) (conflict nil))
    (cl-loop for (key value) on b by #'cddr
             do (cond ((not (plist-member joined key)) (setq joined (plist-put joined key value)))
                      ((equal (plist-get joined key) value))
                      (t (setq conflict (or conflict key)))))
    (or conflict joined)))

(defun taskls-smart-params ()
  "What `smartLists/create' takes to save the current buffer's filter.
The view's filter, with `done: \"notDone\"' added unless it says (in
the Completed group: \"done\"), and `lists': the buffer's list, or every
list (null) for a smart group.  On a smart list, its own filter joined
with the buffer's, over its lists.  Signal `user-error' when that
cannot be one filter."
  (let ((filter (copy-sequence taskls-view--filter))
        (source taskls-view--source)
        (lists nil))
    (cond
     ((plist-get source :list) (setq lists (vector (plist-get source :list))))
     ((plist-get source :smartList)
      (let ((smart (or (taskls-smart-list (plist-get source :smartList))
                       (user-error "The smart list of this buffer is not known yet; try again"))))
        (unless filter
          (user-error "This buffer shows the smart list %s with no filter of its own: / filters it first"
                      (taskls-smart--quoted (plist-get smart :name))))
        (let ((joined (taskls-smart--join (plist-get smart :filter) filter)))
          (when (keywordp joined)
            (user-error "The filter of this buffer and that of %s both set %s: they cannot be saved as one filter"
                        (taskls-smart--quoted (plist-get smart :name)) (substring (symbol-name joined) 1)))
          (setq filter joined
                lists (plist-get smart :lists))))))
    (unless (plist-get filter :done)
      (setq filter (plist-put filter :done (if (equal (plist-get source :group) "completed")
                                               "done" "notDone"))))
    (list :filter filter :lists lists)))

(defun taskls-save-filter (name)
  "Save the filter of this buffer as a smart list called NAME.
Over this buffer's list (every list in a smart group), holding the
tasks not done unless the filter says done.  It shows in the
overview with a live count."
  (interactive (progn (taskls-smart-params)
                      (list (read-string "Save the filter as the smart list: "))))
  (unless (string-blank-p name)
    (let ((params (taskls-smart-params)))
      (taskls-request "smartLists/create" (append (list :name name) params)
                      (lambda (result)
                        (let* ((smart (plist-get result :smartList))
                               (count (or (plist-get smart :count) 0)))
                          (taskls--say "saved the smart list %s (%d task%s): open it from the overview (M-x taskls)"
                                       (taskls-smart--quoted (plist-get smart :name))
                                       count (if (= count 1) "" "s"))))))))

(defun taskls-smart-rename (entry)
  "Rename the smart list of the overview ENTRY (a plist), from a prompt."
  (let ((name (read-string "Name: " (plist-get entry :name))))
    (unless (or (string-blank-p name) (equal name (plist-get entry :name)))
      (taskls-request "smartLists/update" (list :id (plist-get entry :smartList) :name name)))))

(defun taskls-smart-delete (entry)
  "Delete the smart list of the overview ENTRY after asking; its tasks stay."
  (when (yes-or-no-p (format "Delete the smart list %s (its tasks stay)? "
                             (taskls-smart--quoted (plist-get entry :name))))
    (taskls-request "smartLists/delete" (list :id (plist-get entry :smartList)))))

(provide 'taskls-smart)
;;; taskls-smart.el ends here
