;;; taskls-test-helpers.el --- Helpers of the taskls ERT suite -*- lexical-binding: t; -*-

;;; Commentary:

;; A fresh server and store per test, waiting on conditions (never a
;; fixed sleep), prompts answered from a queue, and stores made by the
;; real binary: a 100,000-item list, a damaged journal.

;;; Code:

(require 'cl-lib)
(require 'ert)
(require 'taskls)

(defvar taskls-test-bin (or (getenv "TASKLS_BIN") (executable-find "taskls"))
  "The taskls binary the tests run.")

(defvar taskls-test-tmp
  (let ((dir (or (getenv "TASKLS_TEST_TMP") (make-temp-file "taskls-emacs" t))))
    (make-directory dir t)
    dir)
  "A directory for the tests' stores.")

(defvar taskls-test--serial 0 "Stores made so far.")

(defvar taskls-test-answers nil
  "Answers the stubbed prompts give, in order; an empty queue fails.")

(defvar taskls-test-messages nil "Messages shown during the test, newest first.")

(defun taskls-test-new-store ()
  "A new empty store directory name."
  (setq taskls-test--serial (1+ taskls-test--serial))
  (let ((dir (expand-file-name (format "store-%d" taskls-test--serial) taskls-test-tmp)))
    (when (file-exists-p dir) (delete-directory dir t))
    dir))

(defun taskls-test-wait (predicate what &optional timeout)
  "Process events until PREDICATE is true; fail saying WHAT after TIMEOUT s."
  (let ((deadline (+ (float-time) (or timeout 10))) value)
    (while (and (not (setq value (funcall predicate))) (< (float-time) deadline))
      (accept-process-output nil 0.01))
    (or value (ert-fail (format "timed out waiting for %s" what)))))

(defun taskls-test--answer (&rest _)
  "The next answer of the queue."
  (if taskls-test-answers
      (pop taskls-test-answers)
    (ert-fail "a prompt with no answer queued")))

(defmacro taskls-test-with-server (options &rest body)
  "Run BODY with a fresh store and server.
OPTIONS is a plist: :store DIR, :args (extra server arguments),
:program (the binary), :zone (the time zone given at initialize;
default UTC)."
  (declare (indent 1) (debug t))
  `(let* ((taskls-program (or (plist-get ,options :program) taskls-test-bin))
          (taskls-store (or (plist-get ,options :store) (taskls-test-new-store)))
          (taskls-program-arguments (append '("--clock" "2026-11-25T10:00:00Z")
                                            (plist-get ,options :args)))
          (taskls-time-zone (or (plist-get ,options :zone) "UTC"))
          (taskls-margin 20)
          (taskls-test-answers nil)
          (taskls-test-messages nil)
          (inhibit-message t)
          (set-message-function nil))
     (cl-letf (((symbol-function 'read-string) #'taskls-test--answer)
               ((symbol-function 'completing-read) #'taskls-test--answer)
               ((symbol-function 'y-or-n-p) #'taskls-test--answer)
               ((symbol-function 'yes-or-no-p) #'taskls-test--answer))
       (unwind-protect
           (progn (advice-add 'message :before #'taskls-test--record-message)
                  ,@body)
         (advice-remove 'message #'taskls-test--record-message)
         (taskls-stop)
         (setq taskls--overview nil)
         (dolist (buffer (buffer-list))
           (when (string-match-p "\\`\\*taskls" (buffer-name buffer))
             (kill-buffer buffer)))
         (clrhash taskls--stats)))))

(defun taskls-test--record-message (format-string &rest args)
  "Keep the message FORMAT-STRING with ARGS."
  (when format-string
    (push (apply #'format-message format-string args) taskls-test-messages)))

(defun taskls-test-said (regexp)
  "The first message matching REGEXP, or nil."
  (cl-find-if (lambda (message) (string-match-p regexp message)) taskls-test-messages))

(defun taskls-test-seed (name &rest titles)
  "Create a list NAME with items TITLES (strings or plists); return (LIST IDS)."
  (let* ((list (plist-get (plist-get (taskls-call "lists/create" (list :name name)) :list) :id))
         (ids (mapcar (lambda (title)
                        (let ((fields (if (stringp title) (list :title title) (copy-sequence title))))
                          (plist-get (plist-get (taskls-call "items/create" (append (list :list list) fields))
                                                :item)
                                     :id)))
                      titles)))
    (taskls-test-wait (lambda () (taskls-list-name list)) "the overview to know the list")
    (list list ids)))

(defun taskls-test-open (source)
  "Open SOURCE in a list buffer, wait for its view, return the buffer."
  (let ((buffer (taskls-open source)))
    (taskls-test-wait (lambda () (buffer-local-value 'taskls-view--version buffer)) "the list to open")
    buffer))

(defun taskls-test-raw-lines (&optional buffer)
  "The lines of BUFFER (default the current one), without faces."
  (with-current-buffer (or buffer (current-buffer))
    (let ((text (buffer-substring-no-properties (point-min) (point-max))))
      (split-string (string-remove-suffix "\n" text) "\n"))))

(defun taskls-test-lines (&optional buffer)
  "The lines of BUFFER, each run of spaces between columns cut to two.
The columns' padding depends on the window's width; what a row says
does not (`taskls-lines-up-columns-in-cells' checks the padding)."
  (mapcar (lambda (line) (replace-regexp-in-string "  +" "  " line))
          (taskls-test-raw-lines buffer)))

(defun taskls-test-titles (&optional buffer)
  "The titles of the window's rows of BUFFER (headers as \"== TITLE\")."
  (with-current-buffer (or buffer (current-buffer))
    (mapcar (lambda (row) (if (equal (plist-get row :kind) "header")
                              (concat "== " (plist-get row :title))
                            (plist-get row :title)))
            taskls-view--rows)))

(defun taskls-test-check-buffer (&optional buffer)
  "Assert BUFFER shows exactly its rows where the window is, placeholders elsewhere."
  (with-current-buffer (or buffer (current-buffer))
    (let ((lines (taskls-test-raw-lines))
          (placeholder (substring-no-properties (taskls-placeholder-text))))
      (should (= taskls-view--count (length lines)))
      (should (= taskls-view--lines (length lines)))
      (cl-loop for row in taskls-view--rows for index from taskls-view--start
               do (should (equal (substring-no-properties
                                  (taskls-row-text row (taskls-view--show-list-p)
                                                   (taskls-view--marked-p (plist-get row :id))
                                                   taskls-view--title-width))
                                 (nth index lines))))
      (cl-loop for index from 0 below (min taskls-view--start (length lines))
               do (should (equal placeholder (nth index lines)))))))

(defun taskls-test-goto-title (title)
  "Move point to the row titled TITLE."
  (goto-char (point-min))
  (let ((row (cl-find title taskls-view--rows :key (lambda (row) (plist-get row :title)) :test #'equal)))
    (should row)
    (should (taskls-view-goto-id (plist-get row :id)))))

(defun taskls-test-changed (buffer before)
  "Wait until BUFFER's view version passes BEFORE."
  (taskls-test-wait (lambda () (> (or (buffer-local-value 'taskls-view--version buffer) 0) before))
                    "a change of the view"))

(defmacro taskls-test-after-change (buffer &rest body)
  "Run BODY, then wait until BUFFER's view has changed."
  (declare (indent 1) (debug t))
  `(let ((before (buffer-local-value 'taskls-view--version ,buffer)))
     ,@body
     (taskls-test-changed ,buffer before)))

(defun taskls-test-keys (keys)
  "Type KEYS (a `kbd' string) in the current buffer, shown in the selected window."
  (set-window-buffer (selected-window) (current-buffer))
  (execute-kbd-macro (kbd keys)))

;;; Stores made by the binary

(defun taskls-test--frame (message)
  "MESSAGE (a plist) framed for the server."
  (let ((body (encode-coding-string (json-serialize message :false-object :json-false :null-object nil)
                                    'utf-8)))
    (concat (format "Content-Length: %d\r\n\r\n" (length body)) body)))

(defun taskls-test-drive (store messages)
  "Run `taskls serve' on STORE with MESSAGES (plists) as its input; wait for it."
  (let ((input (make-temp-file "taskls-input")))
    (unwind-protect
        (progn
          (with-temp-file input
            (set-buffer-multibyte nil)
            (insert (apply #'concat
                           (mapcar #'taskls-test--frame
                                   (append (list (list :jsonrpc "2.0" :id 1 :method "initialize"
                                                       :params (make-hash-table)))
                                           messages
                                           (list (list :jsonrpc "2.0" :id 0 :method "shutdown")
                                                 (list :jsonrpc "2.0" :method "exit")))))))
          (let ((status (call-process taskls-test-bin input nil nil "serve" "--store" store)))
            (should (eql status 0))))
      (delete-file input))))

(defvar taskls-test--big nil "The directory of the 100,000-item store, once made.")

(defun taskls-test-big-store ()
  "A store with one list \"Big\" (l1) of 100,000 items \"Task 1\"...; made once."
  (let ((dir (expand-file-name "big-100000" taskls-test-tmp)))
    (unless (equal taskls-test--big dir)
      (when (file-exists-p dir) (delete-directory dir t))
      ;; `swift test' makes the store once for every editor suite: a copy will do.
      (let ((shared (getenv "TASKLS_TEST_BIG_STORE")))
        (if (and shared (not (string-empty-p shared)) (file-directory-p shared))
            (copy-directory shared dir nil t t)
      (taskls-test-drive dir (cons (list :jsonrpc "2.0" :id 2 :method "lists/create" :params (list :name "Big"))
                                   (cl-loop for i from 1 to 100000
                                            collect (list :jsonrpc "2.0" :id (+ 10 i) :method "items/create"
                                                          :params (list :list "l1" :title (format "Task %d" i))))))))
      (setq taskls-test--big dir))
    dir))

(defun taskls-test-copy-store (dir)
  "A copy of the store DIR (for a test that changes a shared one)."
  (let ((copy (taskls-test-new-store)))
    (copy-directory dir copy nil t t)
    copy))

(defun taskls-test-damaged-store ()
  "A store whose journal has a damaged record followed by valid ones."
  (let ((dir (taskls-test-new-store)))
    (taskls-test-drive dir (list (list :jsonrpc "2.0" :id 2 :method "lists/create" :params (list :name "Inbox"))))
    ;; One run per item: each record is synced before the next is written,
    ;; so a damaged one followed by valid ones is corruption, not a torn tail.
    (dotimes (i 3)
      (taskls-test-drive dir (list (list :jsonrpc "2.0" :id 2 :method "items/create"
                                         :params (list :list "l1" :title (format "Item %d" i))))))
    ;; Records follow a 32-byte header; each is length u32 LE, crc u32,
    ;; sequence u64, durable u64, payload.  Flip a byte in the second's payload.
    (let ((path (expand-file-name "journal" dir)))
      (with-temp-buffer
        (set-buffer-multibyte nil)
        (insert-file-contents-literally path)
        (let* ((offset 32)
               (length (+ (char-after (+ offset 1)) (* 256 (char-after (+ offset 2)))
                          (* 65536 (char-after (+ offset 3))) (* 16777216 (char-after (+ offset 4))))))
          (setq offset (+ offset 24 length))
          (let ((position (+ offset 24 3)))
            (let ((byte (char-after position)))
              (goto-char position)
              (delete-char 1)
              (insert (% (1+ byte) 256)))))
        (let ((coding-system-for-write 'binary))
          (write-region (point-min) (point-max) path nil 'silent))))
    dir))

(provide 'taskls-test-helpers)
;;; taskls-test-helpers.el ends here
