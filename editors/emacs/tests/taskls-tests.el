;;; taskls-tests.el --- ERT suite of taskls.el against the real server -*- lexical-binding: t; -*-

;;; Commentary:

;; Every test starts the real `taskls' binary on a fresh store (on a
;; manual clock, 2026-11-25 10:00 UTC) and drives the package as a user
;; would: commands, keys, prompts answered from a queue.  Run with
;; tests/run.el, which prints `emacs: N passed, N failed'.

;;; Code:

(require 'cl-lib)
(require 'ert)
(require 'checkdoc)
(require 'imenu)
(require 'bookmark)
(require 'taskls)
(require 'taskls-test-helpers)

(defconst taskls-test-directory
  (file-name-directory (directory-file-name (file-name-directory (or load-file-name buffer-file-name))))
  "The directory of the package (editors/emacs).")

(defconst taskls-test-files
  '("taskls-client.el" "taskls-render.el" "taskls-view.el" "taskls-list.el" "taskls-tree.el"
    "taskls-repeat.el" "taskls-remind.el" "taskls-smart.el" "taskls-sync.el"
    "taskls.el")
  "The package's files, in load order.")

;;; The package itself

(ert-deftest taskls-byte-compiles-without-warnings ()
  "Every file byte-compiles with warnings as errors."
  (let ((dir (make-temp-file "taskls-compile" t)))
    (unwind-protect
        (let ((byte-compile-error-on-warn t)
              (load-path (cons dir load-path)))
          (dolist (file taskls-test-files)
            (copy-file (expand-file-name file taskls-test-directory) (expand-file-name file dir)))
          (dolist (file taskls-test-files)
            (should (byte-compile-file (expand-file-name file dir)))))
      (delete-directory dir t))))

(ert-deftest taskls-checkdoc-clean ()
  "checkdoc finds nothing in any file."
  (dolist (file taskls-test-files)
    (with-temp-buffer
      (insert-file-contents (expand-file-name file taskls-test-directory))
      (setq buffer-file-name (expand-file-name file taskls-test-directory))
      (emacs-lisp-mode)
      (let ((problems nil))
        (cl-letf (((symbol-function 'checkdoc-create-error)
                   (lambda (text start _end &optional _unfixable)
                     (push (format "%s:%d: %s" file (line-number-at-pos start) text) problems)
                     nil)))
          (let ((checkdoc-autofix-flag 'never)
                (checkdoc-spellcheck-documentation-flag nil))
            (checkdoc-current-buffer t)))
        (setq buffer-file-name nil)
        (should (equal nil problems))))))

(ert-deftest taskls-escapes-stored-text-like-the-repl ()
  "Control characters and bidi overrides show escaped, as the REPL's `displayed'."
  (should (equal "plain" (taskls-displayed "plain")))
  (should (equal "a\\eb\\nc\\td\\re" (taskls-displayed "a\eb\nc\td\re")))
  (should (equal "\\u{7}\\u{7F}\\u{9B}\\u{202E}\\u{2066}" (taskls-displayed "\a\177\u009b\u202e\u2066")))
  (should (equal "C:\\Users" (taskls-displayed "C:\\Users")))
  (should (equal "\\\\n is not \\n" (taskls-displayed "\\n is not \n")))
  (should (equal "\\\\\\e" (taskls-displayed "\\\e")))
  ;; The server's messages quote stored names: escaped once, in the echo area and in a prompt.
  (let ((message (taskls--describe-error (list :code -32602 :message "no list named A\eB"))))
    (should (equal "no list named A\\eB" message))
    (should (equal "New task (no list named A\\eB): " (taskls-list--prompt "New task" nil message)))))

(ert-deftest taskls-says-dates-relative-to-the-servers-day ()
  "Due dates read relative to the overview's today, never the editor's clock."
  (let ((taskls--overview (list :today "2026-11-25"))
        (taskls-time-zone "UTC"))
    (should (equal '("today" . taskls-due-today) (taskls-due-text "2026-11-25" nil)))
    (should (equal "tomorrow" (car (taskls-due-text "2026-11-26" nil))))
    (should (equal '("yesterday" . taskls-overdue) (taskls-due-text "2026-11-24" nil)))
    (should (equal '("yesterday" . taskls-due) (taskls-due-text "2026-11-24" t)))
    (should (equal "in 2 days" (car (taskls-due-text "2026-11-27" nil))))
    (should (equal "in 13 days" (car (taskls-due-text "2026-12-08" nil))))
    (should (equal "2026-12-09" (car (taskls-due-text "2026-12-09" nil))))
    (should (equal "13 days ago" (car (taskls-due-text "2026-11-12" nil))))
    (should (equal "2026-11-11" (car (taskls-due-text "2026-11-11" nil))))
    (should (equal "tomorrow 09:30" (car (taskls-due-text "2026-11-26T09:30:00Z" nil))))
    (should (equal "tomorrow 09:30" (car (taskls-due-text "2026-11-26T10:30:00+01:00" nil))))
    ;; The day and time come from dueLocal (the server's wall clock for the
    ;; client's zone), never from the offset the due is written with.
    (should (equal "in 3 days 07:00" (car (taskls-due-text "2026-11-27T17:00:00Z" nil "2026-11-28T07:00"))))
    (should (equal "2026-11-28 07:00" (taskls-due-phrase "2026-11-27T17:00:00Z" "2026-11-28T07:00")))
    (should (equal "2026-11-27" (taskls-due-phrase "2026-11-27")))
    (should (equal "" (taskls-due-phrase nil)))
    ;; A time earlier today is overdue when the editor's clock agrees on the day.
    (cl-letf (((symbol-function 'current-time)
               (lambda () (encode-time (list 0 0 12 25 11 2026 nil nil t)))))
      (should (equal '("today 09:30" . taskls-overdue) (taskls-due-text "2026-11-25T09:30:00Z" nil)))
      (should (equal '("today 13:30" . taskls-due-today) (taskls-due-text "2026-11-25T13:30:00Z" nil))))
    (cl-letf (((symbol-function 'current-time)
               (lambda () (encode-time (list 0 0 12 26 11 2026 nil nil t)))))
      (should (equal '("today 09:30" . taskls-due-today) (taskls-due-text "2026-11-25T09:30:00Z" nil))))))

(ert-deftest taskls-computes-the-rows-a-window-shows ()
  "The shown range follows `window-start', or point when point is outside it."
  (with-temp-buffer
    (dotimes (i 1000) (insert (format "line %d\n" i)))
    (set-window-buffer (selected-window) (current-buffer))
    (let ((height (window-body-height)))
      (set-window-start (selected-window) (progn (goto-char (point-min)) (forward-line 500) (point)))
      (set-window-point (selected-window) (point))
      (should (equal (cons 500 (+ 500 height -1)) (taskls-view-shown-range (selected-window))))
      (goto-char (point-min))
      (forward-line 900)
      (set-window-point (selected-window) (point))
      (should (equal (cons (- 900 (/ height 2)) (+ 900 (- height (/ height 2)) -1))
                     (taskls-view-shown-range (selected-window)))))))

(ert-deftest taskls-follows-scrolling-under-real-redisplay ()
  "In a terminal (a pty), scrolling moves the window through `window-scroll-functions'."
  (skip-unless (executable-find "script"))
  (let* ((out (make-temp-file "taskls-pty"))
         (emacs (expand-file-name invocation-name invocation-directory))
         (process-environment (append (list "TERM=xterm"
                                            (concat "TASKLS_BIN=" taskls-test-bin)
                                            (concat "TASKLS_PTY_STORE=" (taskls-test-new-store))
                                            (concat "TASKLS_PTY_OUT=" out))
                                      process-environment))
         (command (mapconcat #'shell-quote-argument
                             (list "timeout" "60" emacs "-nw" "-Q" "-L" taskls-test-directory
                                   "-l" (expand-file-name "tests/taskls-pty-driver.el" taskls-test-directory))
                             " ")))
    (unwind-protect
        (progn
          (should (eql 0 (call-process "script" nil nil nil "-qec" command "/dev/null")))
          ;; The window's size depends on the pty: the counts vary, not the outcome.
          (should (string-match-p "\\`open [0-9]+ 300\nscrolled t\nend t\nrequests [2-9]\n\\'"
                                  (with-temp-buffer (insert-file-contents out) (buffer-string)))))
      (delete-file out))))

;;; The overview

(ert-deftest taskls-overview-shows-groups-and-lists-live ()
  "M-x taskls shows the smart groups and the lists; counts follow changes."
  (taskls-test-with-server nil
    (let ((buffer (taskls)))
      (taskls-test-wait (lambda () (member "  No lists — press + to create one" (taskls-test-lines buffer)))
                        "the empty overview")
      (should (member "Smart lists" (taskls-test-lines buffer)))
      (should (cl-some (lambda (line) (string-match-p "\\`  Today +0\\'" line)) (taskls-test-lines buffer)))
      (setq taskls-test-answers '("Groceries"))
      (with-current-buffer buffer (taskls-test-keys "+"))
      (taskls-test-wait (lambda () (cl-some (lambda (line) (string-match-p "\\`  Groceries +0/0\\'" line))
                                            (taskls-test-lines buffer)))
                        "the new list")
      (let ((list (plist-get (car (taskls-lists)) :id)))
        (taskls-call "items/create" (list :list list :title "Milk" :due "2026-11-25"))
        (taskls-test-wait (lambda () (cl-some (lambda (line) (string-match-p "\\`  Groceries +1/1\\'" line))
                                              (taskls-test-lines buffer)))
                          "the live count")
        (should (cl-some (lambda (line) (string-match-p "\\`  Today +1\\'" line)) (taskls-test-lines buffer)))
        ;; RET on a list opens it.
        (with-current-buffer buffer
          (goto-char (point-min))
          (search-forward "Groceries")
          (taskls-test-keys "RET"))
        (let ((list-buffer (get-buffer "*taskls: Groceries*")))
          (should list-buffer)
          (taskls-test-wait (lambda () (buffer-local-value 'taskls-view--version list-buffer)) "the list")
          (should (equal '("  [ ] Milk  today") (taskls-test-lines list-buffer))))))))

(ert-deftest taskls-tells-how-each-list-synced ()
  "A `sync/now' answer is told one list after the other, by name."
  (let ((taskls--overview '(:lists [(:id "list-1" :name "Groceries" :open 1 :total 1)])))
    (should (equal "Groceries: synced 2026-11-26 10:04 UTC (2 sent, 1 received); list-2: offline, 3 waiting"
                   (taskls-sync--told
                    '(:lists [(:sync (:list "list-1" :state "synced" :syncedAt "2026-11-26T10:04:31Z"
                                      :waiting 0 :notices [])
                               :sent 2 :received 1)
                              (:sync (:list "list-2" :state "offline" :syncedAt nil :waiting 3 :notices [])
                               :sent 0 :received 0)]))))
    (should (equal "no list is shared" (taskls-sync--told '(:lists []))))))

(ert-deftest taskls-overview-shows-sync-states-and-syncs ()
  "A shared list shows its sync state; S syncs, and a refusal says why."
  (taskls-test-with-server nil
    (let* ((list (car (taskls-test-seed "Groceries" "Milk")))
           (buffer (taskls))
           (state (list :lists (vector (list :list list :account "home" :calendar "/ann/groceries/"
                                             :state "offline" :syncedAt nil
                                             :message "dav.example.com cannot be reached: timed out"
                                             :waiting 2
                                             :notices ["Milk: the title here won over Oat milk"]))))
           (file (expand-file-name "sync-state.json" taskls-store)))
      (taskls-test-wait (lambda () (member "  Groceries  1/1" (taskls-test-lines buffer))) "the list")
      ;; What taskls-sync leaves beside the store after a sync that found the
      ;; server down (replaced whole with a rename, as it does).
      (with-temp-file (concat file ".tmp")
        (insert (json-serialize state :null-object nil)))
      (rename-file (concat file ".tmp") file t)
      (taskls-test-wait (lambda () (member "  Groceries  1/1  offline, 2 waiting" (taskls-test-lines buffer)))
                        "the offline state")
      (let* ((lines (taskls-test-lines buffer))
             (at (cl-position "  Groceries  1/1  offline, 2 waiting" lines :test #'equal)))
        (should (equal '("  dav.example.com cannot be reached: timed out"
                         "  Milk: the title here won over Oat milk")
                       (list (nth (1+ at) lines) (nth (+ 2 at) lines))))
        (with-current-buffer buffer
          (goto-char (point-min))
          (forward-line (1+ at))
          (should (eq 'taskls-warning (get-text-property (+ 4 (point)) 'face)))
          (forward-line 1)
          (should (eq 'taskls-state (get-text-property (+ 4 (point)) 'face)))))
      ;; The words of every state.
      (should (equal '("synced 2026-11-26 10:04 UTC" . taskls-state)
                     (taskls-sync-words '(:state "synced" :syncedAt "2026-11-26T10:04:31Z"))))
      (should (equal '("syncing…" . taskls-state) (taskls-sync-words '(:state "syncing"))))
      (should (equal '("syncing, 3 of 10 sent" . taskls-state)
                     (taskls-sync-words '(:state "syncing" :progress (:sent 3 :total 10)))))
      (should (equal '("sync error" . taskls-error) (taskls-sync-words '(:state "error"))))
      (should (equal '("sync waits for C-u M-x taskls-sync" . taskls-warning) (taskls-sync-words '(:state "confirm"))))
      (should (null (taskls-sync-words nil)))
      ;; S asks the server to sync: the sync program finds no account, and
      ;; Emacs says so; so does C-u M-x taskls-sync.
      (with-current-buffer buffer (taskls-test-keys "S"))
      (taskls-test-wait (lambda () (taskls-test-said "\\`taskls: .*no account: add one")) "the refusal")
      (setq taskls-test-messages nil)
      (let ((current-prefix-arg '(4))) (call-interactively #'taskls-sync))
      (taskls-test-wait (lambda () (taskls-test-said "\\`taskls: .*no account: add one")) "the refusal of the confirmed sync")
      (should (taskls-test-said "\\`taskls: syncing (confirmed)…\\'"))
      (should-not (taskls-test-said "internal error")))))

;;; The list buffer

(ert-deftest taskls-list-shows-rows-and-states ()
  "Rows with faces and relative dates; the empty and no-match states."
  (taskls-test-with-server nil
    (let* ((seed (taskls-test-seed "Inbox"))
           (buffer (taskls-test-open (list :list (car seed) :name "Inbox"))))
      (should (equal '("No tasks — press a to add one") (taskls-test-lines buffer)))
      (taskls-test-after-change buffer
        (taskls-call "items/create" (list :list (car seed) :title "Pay\ebills" :due "2026-11-24"
                                          :priority "high" :tags ["home" "money"] :notes "n")))
      (should (equal '("  [ ] Pay\\ebills +  yesterday  !!!  #home #money") (taskls-test-lines buffer)))
      (with-current-buffer buffer
        (goto-char (point-min))
        (search-forward "yesterday")
        (should (eq 'taskls-overdue (get-text-property (1- (point)) 'face))))
      (setq taskls-test-answers '("nothing-matches-this"))
      (with-current-buffer buffer
        (taskls-test-after-change buffer (taskls-test-keys "/")))
      (should (equal '("No matches — clear the filter with /") (taskls-test-lines buffer)))
      (setq taskls-test-answers '(""))
      (with-current-buffer buffer
        (taskls-test-after-change buffer (taskls-test-keys "/")))
      (should (= 1 (length (taskls-test-lines buffer)))))))

(ert-deftest taskls-adds-with-quick-entry-and-keeps-text-on-warnings ()
  "a reads the line with text/parseItem; a warning brings the prompt back."
  (taskls-test-with-server nil
    (let* ((seed (taskls-test-seed "Inbox" "First"))
           (buffer (taskls-test-open (list :list (car seed) :name "Inbox"))))
      (with-current-buffer buffer
        (setq taskls-test-answers '("Buy milk ^tomorrow !high #home // 2 litres"))
        (taskls-test-after-change buffer (taskls-test-keys "a"))
        (should (equal '("First" "Buy milk") (taskls-test-titles)))
        (should (equal "  [ ] Buy milk +  tomorrow  !!!  #home" (nth 1 (taskls-test-lines))))
        (should (equal "Buy milk" (plist-get (taskls-view-row-at) :title)))
        ;; A warning: nothing is stored, however often the same text is submitted;
        ;; the prompt comes back with the text and the warning in it.
        (let ((prompts nil)
              (creates (gethash "items/create" taskls--stats 0)))
          (setq taskls-test-answers '("Call Ann ^fryday" "Call Ann ^fryday" "Call Ann ^fryday"
                                      "Call @No\ewhere" ""))
          (cl-letf (((symbol-function 'read-string)
                     (lambda (prompt &optional initial &rest _)
                       (push (cons prompt initial) prompts)
                       (taskls-test--answer))))
            (taskls-test-keys "+"))
          (should (null taskls-test-answers))
          (setq prompts (nreverse prompts))
          (should (equal '("New task: ") (car prompts)))
          (dolist (prompt (cl-subseq prompts 1 4))
            (should (equal "Call Ann ^fryday" (cdr prompt)))
            (should (string-match-p "\\`New task (fryday is not a date.*\\\\ keeps a word as text): \\'"
                                    (car prompt))))
          ;; The warning quotes what was typed: escaped like stored text.
          (should (equal "Call @No\ewhere" (cdr (nth 4 prompts))))
          (should (string-match-p "no list named No\\\\ewhere" (car (nth 4 prompts))))
          (should-not (string-match-p "\e" (car (nth 4 prompts))))
          (should (= creates (gethash "items/create" taskls--stats 0))))
        ;; Corrected, it is stored.
        (setq taskls-test-answers '("Call Ann ^fri"))
        (taskls-test-after-change buffer (taskls-test-keys "a"))
        (should (equal '("First" "Buy milk" "Call Ann") (taskls-test-titles)))
        (should (equal "  [ ] Call Ann  in 2 days" (nth 2 (taskls-test-lines))))
        ;; A refused task (51 tags) is not lost: the prompt comes back with it.
        (let ((tags (mapconcat (lambda (n) (format "#t%d" n)) (number-sequence 1 51) " ")))
          (setq taskls-test-answers (list (concat "Many " tags) ""))
          (taskls-test-keys "a")
          (should (null taskls-test-answers))
          (should (= 3 (length (taskls-test-titles)))))))))

(ert-deftest taskls-edits-every-field ()
  "e, d, \",\", :, N and t change title, due, priority, tags, notes, done."
  (taskls-test-with-server nil
    (let* ((seed (taskls-test-seed "Inbox" "Task"))
           (buffer (taskls-test-open (list :list (car seed) :name "Inbox")))
           (id (car (cadr seed))))
      (with-current-buffer buffer
        (goto-char (point-min))
        (setq taskls-test-answers '("Renamed #42"))
        (taskls-test-after-change buffer (taskls-test-keys "e"))
        (should (equal "  [ ] Renamed  #42" (car (taskls-test-lines))))
        (setq taskls-test-answers '("fri 5pm"))
        (taskls-test-after-change buffer (taskls-test-keys "d"))
        (should (equal "  [ ] Renamed  in 2 days 17:00  #42" (car (taskls-test-lines))))
        (setq taskls-test-answers '("medium"))
        (taskls-test-after-change buffer (taskls-test-keys ","))
        (setq taskls-test-answers '("home, work"))
        (taskls-test-after-change buffer (taskls-test-keys ":"))
        (should (equal "  [ ] Renamed  in 2 days 17:00  !!  #home #work" (car (taskls-test-lines))))
        (taskls-test-after-change buffer (taskls-test-keys "t"))
        (should (equal "  [x] Renamed  in 2 days 17:00  !!  #home #work" (car (taskls-test-lines))))
        (taskls-test-after-change buffer (taskls-test-keys "x"))
        (setq taskls-test-answers '("none"))
        (taskls-test-after-change buffer (taskls-test-keys "d"))
        (should (equal "  [ ] Renamed  !!  #home #work" (car (taskls-test-lines)))))
      ;; Notes in their own buffer: C-c C-c saves.
      (with-current-buffer buffer
        (goto-char (point-min))
        (taskls-test-keys "N"))
      (let ((notes (get-buffer "*taskls notes: Renamed*")))
        (should notes)
        (with-current-buffer notes
          (should (eq major-mode 'taskls-notes-mode))
          (insert "line one\nline two")
          (taskls-test-after-change buffer (taskls-test-keys "C-c C-c")))
        (should-not (buffer-live-p notes)))
      (should (equal "line one\nline two" (plist-get (taskls-call "items/get" (list :id id)) :notes)))
      (should (equal "  [ ] Renamed +  !!  #home #work" (car (taskls-test-lines buffer))))
      ;; C-c C-k cancels.
      (with-current-buffer buffer (taskls-test-keys "N"))
      (with-current-buffer "*taskls notes: Renamed*"
        (erase-buffer)
        (taskls-test-keys "C-c C-k"))
      (should (equal "line one\nline two" (plist-get (taskls-call "items/get" (list :id id)) :notes)))
      ;; e with @List moves the task to that list.
      (let ((other (car (taskls-test-seed "Other"))))
        (with-current-buffer buffer
          (goto-char (point-min))
          (setq taskls-test-answers '("Renamed \\#42 @Other"))
          (taskls-test-after-change buffer (taskls-test-keys "e")))
        (should (equal "No tasks — press a to add one" (car (taskls-test-lines buffer))))
        (should (equal other (plist-get (taskls-call "items/get" (list :id id)) :list)))
        (should (equal "Renamed #42" (plist-get (taskls-call "items/get" (list :id id)) :title)))))))

(ert-deftest taskls-deletes-asking-for-blocks ()
  "k deletes the task at point; several marked ones only after a yes."
  (taskls-test-with-server nil
    (let* ((seed (taskls-test-seed "Inbox" "A" "B" "C" "D"))
           (buffer (taskls-test-open (list :list (car seed) :name "Inbox"))))
      (with-current-buffer buffer
        (taskls-test-goto-title "B")
        (taskls-test-after-change buffer (taskls-test-keys "k"))
        (should (equal '("A" "C" "D") (taskls-test-titles)))
        (goto-char (point-min))
        (taskls-test-keys "m m")
        (should (equal '("*  [ ] A" "*  [ ] C" "  [ ] D") (taskls-test-lines)))
        (setq taskls-test-answers '(nil))
        (taskls-test-keys "D")
        (should (equal '("A" "C" "D") (taskls-test-titles)))
        (setq taskls-test-answers '(t))
        (taskls-test-after-change buffer (taskls-test-keys "D"))
        (should (equal '("D") (taskls-test-titles)))
        (should (equal '("  [ ] D") (taskls-test-lines)))))))

(ert-deftest taskls-bulk-acts-on-marked-rows ()
  "m marks rows; t, \",\" and : act on every marked row in one request."
  (taskls-test-with-server nil
    (let* ((seed (taskls-test-seed "Inbox" "A" "B" "C"))
           (buffer (taskls-test-open (list :list (car seed) :name "Inbox"))))
      (with-current-buffer buffer
        (goto-char (point-min))
        (taskls-test-keys "m n m")
        (should (equal '("*  [ ] A" "  [ ] B" "*  [ ] C") (taskls-test-lines)))
        (let ((updates (gethash "items/update" taskls--stats 0)))
          (taskls-test-after-change buffer (taskls-test-keys "t"))
          (taskls-test-wait (lambda () (equal '("  [x] A" "  [ ] B" "  [x] C") (taskls-test-lines)))
                            "both done, marks gone")
          (should (= (1+ updates) (gethash "items/update" taskls--stats))))
        (goto-char (point-min))
        (taskls-test-keys "m m")
        (taskls-test-keys "DEL")
        (should (equal '("*  [x] A" "  [ ] B" "  [x] C") (taskls-test-lines)))
        (taskls-test-keys "m U")
        (should (equal '("  [x] A" "  [ ] B" "  [x] C") (taskls-test-lines)))
        (goto-char (point-min))
        (taskls-test-keys "m m")
        (setq taskls-test-answers '("high"))
        (taskls-test-after-change buffer (taskls-test-keys ","))
        (taskls-test-wait (lambda () (equal '("  [x] A  !!!" "  [ ] B  !!!" "  [x] C") (taskls-test-lines)))
                          "priority on both")))))

(ert-deftest taskls-moves-in-manual-order-only ()
  "M-n and M-p reorder; point follows the task; a sorted view says why not."
  (taskls-test-with-server nil
    (let* ((seed (taskls-test-seed "Inbox" "A" "B" "C"))
           (buffer (taskls-test-open (list :list (car seed) :name "Inbox"))))
      (with-current-buffer buffer
        (taskls-test-goto-title "A")
        (taskls-test-after-change buffer (taskls-test-keys "M-n"))
        (should (equal '("B" "A" "C") (taskls-test-titles)))
        (should (equal "A" (plist-get (taskls-view-row-at) :title)))
        (taskls-test-after-change buffer (taskls-test-keys "M-<down>"))
        (should (equal '("B" "C" "A") (taskls-test-titles)))
        (taskls-test-after-change buffer (taskls-test-keys "M-p"))
        (should (equal '("B" "A" "C") (taskls-test-titles)))
        (should (equal "A" (plist-get (taskls-view-row-at) :title)))
        (setq taskls-test-answers '("title"))
        (taskls-test-after-change buffer (taskls-test-keys "s"))
        (should (equal '("A" "B" "C") (taskls-test-titles)))
        (should (string-match-p "sorted by title" (cadr (should-error (taskls-move-down) :type 'user-error))))))))

(ert-deftest taskls-sorts-filters-and-groups-into-sections ()
  "s, / and S change the view; headers are headings; imenu lists them."
  (taskls-test-with-server nil
    (let* ((seed (taskls-test-seed "Inbox" '(:title "b milk" :priority "high") '(:title "a bread")
                                   '(:title "c milk" :priority "low")))
           (buffer (taskls-test-open (list :list (car seed) :name "Inbox"))))
      (with-current-buffer buffer
        (setq taskls-test-answers '("priority (high first)"))
        (taskls-test-after-change buffer (taskls-test-keys "s"))
        (should (equal '("b milk" "c milk" "a bread") (taskls-test-titles)))
        (should (equal " [by priority desc]" mode-line-process))
        (setq taskls-test-answers '("milk"))
        (taskls-test-after-change buffer (taskls-test-keys "/"))
        (should (equal '("b milk" "c milk") (taskls-test-titles)))
        (setq taskls-test-answers '("priority"))
        (taskls-test-after-change buffer (taskls-test-keys "S"))
        (should (equal '("== High" "b milk" "== Low" "c milk") (taskls-test-titles)))
        (should (equal '("High (1)" "  [ ] b milk  !!!" "Low (1)" "  [ ] c milk  !") (taskls-test-lines)))
        (should (eq 'taskls-header (get-text-property (point-min) 'face)))
        (should (equal '("High" "Low") (mapcar #'car (funcall imenu-create-index-function))))
        (taskls-test-check-buffer)))))

(ert-deftest taskls-undoes-and-redoes-through-the-server ()
  "u and r (and undo's own keys) call the server's undo and redo."
  (taskls-test-with-server nil
    (let* ((seed (taskls-test-seed "Inbox" "A"))
           (buffer (taskls-test-open (list :list (car seed) :name "Inbox"))))
      (with-current-buffer buffer
        (goto-char (point-min))
        (taskls-test-after-change buffer (taskls-test-keys "x"))
        (should (equal '("  [x] A") (taskls-test-lines)))
        (taskls-test-after-change buffer (taskls-test-keys "u"))
        (should (equal '("  [ ] A") (taskls-test-lines)))
        (taskls-test-after-change buffer (taskls-test-keys "r"))
        (should (equal '("  [x] A") (taskls-test-lines)))
        (taskls-test-after-change buffer (taskls-test-keys "C-/"))
        (should (equal '("  [ ] A") (taskls-test-lines)))
        (should (eq (key-binding (kbd "C-/")) 'taskls-undo))))))

(ert-deftest taskls-two-buffers-on-one-list-stay-exact ()
  "Two buffers (one sorted) on one list both follow every change."
  (taskls-test-with-server nil
    (let* ((seed (taskls-test-seed "Inbox" "B" "A" "C"))
           (one (taskls-test-open (list :list (car seed) :name "Inbox")))
           (two (taskls-open (list :list (car seed) :name "Inbox") t)))
      (taskls-test-wait (lambda () (buffer-local-value 'taskls-view--version two)) "the second buffer")
      (with-current-buffer two
        (taskls-test-after-change two (taskls-sort "title")))
      (should (equal '("A" "B" "C") (taskls-test-titles two)))
      (dotimes (i 20)
        (let ((ids (mapcar (lambda (row) (plist-get row :id)) (buffer-local-value 'taskls-view--rows one))))
          (pcase (% i 4)
            (0 (taskls-call "items/create" (list :list (car seed) :title (format "N%d" i))))
            (1 (taskls-call "items/update" (list :id (nth (% i (length ids)) ids) :title (format "Z%d" i))))
            (2 (taskls-call "items/delete" (list :ids (vector (car ids)))))
            (3 (taskls-call "items/move" (list :ids (vector (car (last ids))) :before (car ids)))))))
      (taskls-test-check-buffer one)
      (taskls-test-check-buffer two)
      (let* ((fresh (taskls-call "lists/open" (list :list (car seed))))
             (expected (mapcar (lambda (row) (plist-get row :title)) (plist-get fresh :rows))))
        (taskls-call "view/close" (list :view (plist-get fresh :view)))
        (should (= 3 (length expected)))
        (should (equal expected (taskls-test-titles one)))
        (should (equal (sort (copy-sequence expected) #'string<) (taskls-test-titles two))))
      ;; q closes the buffer and its view; the other buffer goes on.
      (let ((closes (gethash "view/close" taskls--stats 0)))
        (with-current-buffer two (taskls-test-keys "q"))
        (should-not (buffer-live-p two))
        (should (= (1+ closes) (gethash "view/close" taskls--stats 0))))
      (taskls-test-after-change one (taskls-call "items/create" (list :list (car seed) :title "Last")))
      (taskls-test-check-buffer one))))

(ert-deftest taskls-point-stays-on-its-item ()
  "Rows inserted and removed above point leave point on its task."
  (taskls-test-with-server nil
    (let* ((seed (taskls-test-seed "Inbox" "A" "B" "C" "D"))
           (buffer (taskls-test-open (list :list (car seed) :name "Inbox"))))
      (set-window-buffer (selected-window) buffer)
      (with-current-buffer buffer
        (taskls-test-goto-title "C")
        (forward-char 4)
        (setq taskls-view--stats (plist-put taskls-view--stats :full-renders 0))
        (taskls-test-after-change buffer
          (taskls-call "items/create" (list :list (car seed) :title "Top" :before (car (cadr seed)))))
        (should (equal "C" (plist-get (taskls-view-row-at) :title)))
        (should (= 4 (current-column)))
        (should (equal "C" (plist-get (taskls-view-row-at (window-point)) :title)))
        (taskls-test-after-change buffer (taskls-call "items/delete" (list :ids (vector (nth 1 (cadr seed))))))
        (should (equal "C" (plist-get (taskls-view-row-at) :title)))
        (should (= 3 (line-number-at-pos)))
        (should (= 0 (taskls-view-stat :full-renders)))))))

;;; Large lists and states

(ert-deftest taskls-big-list-opens-at-once-and-fetches-only-what-is-shown ()
  "A 100,000-item list: one line per row, few rows requested, scrolling fetches more."
  (taskls-test-with-server (list :store (taskls-test-copy-store (taskls-test-big-store)))
    (let ((buffer (taskls-open (list :list "l1" :name "Big"))))
      (taskls-test-wait (lambda () (with-current-buffer buffer
                                     (and (equal taskls-view--state "ready") (= taskls-view--count 100000))))
                        "the big list" 60)
      (with-current-buffer buffer
        (set-window-buffer (selected-window) buffer)
        (should (= 100000 (length (taskls-test-lines))))
        (should (equal "  [ ] Task 1" (car (taskls-test-lines))))
        (should (<= (taskls-view-stat :rows-received) 100))
        (taskls-test-check-buffer)
        (goto-char (point-min))
        (forward-line 49999)
        (taskls-view-check-window)
        (taskls-test-wait (lambda () (equal "  [ ] Task 50000" (nth 49999 (taskls-test-lines))))
                          "the rows around line 50000")
        (should (= 1 (taskls-view-stat :window-requests)))
        (should (equal "Task 50000" (plist-get (taskls-view-row-at) :title)))
        (taskls-test-check-buffer)
        ;; A key that moves point: the command's post-command-hook moves the window.
        (taskls-test-keys ">")
        (taskls-test-wait (lambda () (equal "  [ ] Task 100000" (car (last (taskls-test-lines)))))
                          "the last row")
        (goto-char (point-max))
        (forward-line -1)
        (should (= 2 (taskls-view-stat :window-requests)))
        (should (< (taskls-view-stat :rows-received) 400))
        (should (<= (gethash "view/setWindow" taskls--stats) 2))
        ;; A change near the end is applied to its line only.
        (let ((renders (taskls-view-stat :full-renders))
              (written (taskls-view-stat :lines-written)))
          (taskls-test-after-change buffer
            (taskls-call "items/update" (list :id (plist-get (taskls-view-row-at) :id) :done t)))
          (should (equal "  [x] Task 100000" (car (last (taskls-test-lines)))))
          (should (= renders (taskls-view-stat :full-renders)))
          (should (= (1+ written) (taskls-view-stat :lines-written))))
        (taskls-test-check-buffer)))))

(ert-deftest taskls-point-stays-on-its-item-in-a-big-list ()
  "In a big list, changes inside and above the window keep point on its task."
  (taskls-test-with-server (list :store (taskls-test-copy-store (taskls-test-big-store)))
    (let ((buffer (taskls-open (list :list "l1" :name "Big"))))
      (taskls-test-wait (lambda () (equal (buffer-local-value 'taskls-view--state buffer) "ready"))
                        "the big list" 60)
      (with-current-buffer buffer
        (set-window-buffer (selected-window) buffer)
        (goto-char (point-min))
        (forward-line 29999)
        (taskls-view-check-window)
        (taskls-test-wait (lambda () (and (> taskls-view--start 29000) (null taskls-view--window-request)))
                          "the window near 30000")
        (let ((item (taskls-view-row-at))
              (renders (taskls-view-stat :full-renders)))
          (should (equal "Task 30000" (plist-get item :title)))
          (taskls-test-after-change buffer
            (taskls-call "items/delete" (list :ids (vector (plist-get (nth 1 taskls-view--rows) :id)))))
          (should (equal (plist-get item :id) (plist-get (taskls-view-row-at) :id)))
          (should (= 29999 (line-number-at-pos)))
          (taskls-test-after-change buffer
            (taskls-call "items/move" (list :view taskls-view--view :version taskls-view--version
                                            :from (1- taskls-view--count) :to 0)))
          (should (equal (plist-get item :id) (plist-get (taskls-view-row-at) :id)))
          (should (= 30000 (line-number-at-pos)))
          (should (= renders (taskls-view-stat :full-renders)))
          (taskls-test-check-buffer))))))

(ert-deftest taskls-shows-loading-then-the-rows ()
  "A store held in loading (--hold-load) shows Loading… in the overview and the list."
  (taskls-test-with-server (list :store (taskls-test-big-store) :args '("--hold-load"))
    (let ((overview (taskls)))
      (taskls-test-wait (lambda () (equal "Loading… 0%" (car (taskls-test-lines overview)))) "the overview loading")
      (let ((buffer (taskls-test-open (list :list "l1" :name "Big"))))
        (should (equal '("Loading… 0%") (taskls-test-lines buffer)))
        (taskls-call "debug/continueLoading" nil)
        (taskls-test-wait (lambda () (equal (buffer-local-value 'taskls-view--state buffer) "ready"))
                          "the rows" 60)
        (should (equal "  [ ] Task 1" (car (taskls-test-lines buffer))))
        (should (= 100000 (length (taskls-test-lines buffer))))
        (taskls-test-wait (lambda () (cl-some (lambda (line) (string-match-p "\\`  Big +100000/100000\\'" line))
                                              (taskls-test-lines overview)))
                          "the overview ready")))))

(ert-deftest taskls-shows-the-error-of-a-damaged-store ()
  "A damaged journal: Error: … — press g to retry; g retries."
  (taskls-test-with-server (list :store (taskls-test-damaged-store))
    (let ((buffer (taskls-test-open (list :list "l1" :name "Inbox"))))
      (should (equal "error" (buffer-local-value 'taskls-view--state buffer)))
      (should (string-match-p "\\`Error: .*journal.* — press g to retry\\'" (car (taskls-test-lines buffer))))
      (let ((version (buffer-local-value 'taskls-view--version buffer)))
        (with-current-buffer buffer (taskls-test-keys "g"))
        (taskls-test-wait (lambda () (>= (buffer-local-value 'taskls-view--version buffer) (+ version 2)))
                          "the retry (loading, then the error again)"))
      (should (string-match-p "\\`Error: " (car (taskls-test-lines buffer)))))))

(ert-deftest taskls-resyncs-silently-after-a-version-gap ()
  "A missed notification: the buffer fetches a snapshot and says nothing."
  (taskls-test-with-server nil
    (let* ((seed (taskls-test-seed "Gap" "A" "B" "C"))
           (buffer (taskls-test-open (list :list (car seed) :name "Gap"))))
      (with-current-buffer buffer
        (setq taskls-view--version (1- taskls-view--version))
        (setq taskls-test-messages nil)
        (taskls-call "items/create" (list :list (car seed) :title "D"))
        (taskls-test-wait (lambda () (and (= 1 (taskls-view-stat :resyncs)) (not taskls-view--resyncing)))
                          "the resync")
        (should (equal '("A" "B" "C" "D") (taskls-test-titles)))
        (taskls-test-check-buffer)
        (should (null (cl-remove-if-not (lambda (m) (string-prefix-p "taskls:" m)) taskls-test-messages)))
        (taskls-test-after-change buffer (taskls-call "items/create" (list :list (car seed) :title "E")))
        (should (= 1 (taskls-view-stat :resyncs)))
        (taskls-test-check-buffer)))))

(ert-deftest taskls-follows-the-servers-day ()
  "At the client's midnight (the server's clock), dates are said anew."
  (taskls-test-with-server nil
    ;; Years ahead of the editor's own clock, so that its 09:30 has not passed whenever the test runs.
    (taskls-call "debug/setClock" (list :now "2031-01-15T10:00:00Z"))
    (let* ((seed (taskls-test-seed "Inbox" '(:title "A" :due "2031-01-16") '(:title "B" :due "2031-01-16T09:30:00Z")))
           (buffer (taskls-test-open (list :list (car seed) :name "Inbox"))))
      (taskls-test-wait (lambda () (equal '("  [ ] A  tomorrow" "  [ ] B  tomorrow 09:30") (taskls-test-lines buffer)))
                        "the server's day")
      (taskls-call "debug/setClock" (list :now "2031-01-16T10:00:00Z"))
      (taskls-test-wait (lambda () (equal '("  [ ] A  today" "  [ ] B  today 09:30") (taskls-test-lines buffer)))
                        "the new day")
      (with-current-buffer buffer
        (goto-char (point-min))
        (search-forward "today")
        (should (eq 'taskls-due-today (get-text-property (1- (point)) 'face)))
        (search-forward "today")
        ;; The editor's clock is not the server's: 09:30 is not said to have passed.
        (should (eq 'taskls-due-today (get-text-property (1- (point)) 'face)))))))

(ert-deftest taskls-survives-a-server-restart ()
  "The server stopping says so in place of the rows; a restart reopens the views."
  (taskls-test-with-server nil
    (let* ((seed (taskls-test-seed "Inbox" "A"))
           (buffer (taskls-test-open (list :list (car seed) :name "Inbox"))))
      (taskls-stop)
      (should (equal '("The server stopped — press g to restart it") (taskls-test-lines buffer)))
      (taskls-restart)
      (taskls-test-wait (lambda () (equal '("  [ ] A") (taskls-test-lines buffer))) "the reopened view")
      (taskls-stop)
      (with-current-buffer buffer (taskls-test-keys "g"))
      (taskls-test-wait (lambda () (equal '("  [ ] A") (taskls-test-lines buffer))) "g restarting the server"))))

(ert-deftest taskls-reads-the-due-with-org-when-org-is-loaded ()
  "With Org loaded, d reads the date with `org-read-date'; the server reads it."
  (taskls-test-with-server nil
    (let* ((seed (taskls-test-seed "Inbox" "A"))
           (buffer (taskls-test-open (list :list (car seed) :name "Inbox")))
           (asked nil))
      (with-current-buffer buffer
        (goto-char (point-min))
        ;; Org as loaded (its `org-read-date' defined), without loading it.
        (cl-letf (((symbol-function 'org-read-date)
                   (lambda (with-time &rest _) (setq asked with-time) "2026-11-27 17:00")))
          (taskls-test-after-change buffer (taskls-test-keys "d")))
        (should asked)
        (should (equal '("  [ ] A  in 2 days 17:00") (taskls-test-lines)))
        (should (equal "2026-11-27T17:00:00Z"
                       (plist-get (taskls-call "items/get" (list :id (car (cadr seed)))) :due)))))))

(ert-deftest taskls-smart-groups-show-lists-and-add-due-today ()
  "A smart group says each task's list; a task added in Today is due today."
  (taskls-test-with-server nil
    (let* ((seed (taskls-test-seed "Home" '(:title "Sweep" :due "2026-11-25")))
           (buffer (taskls-test-open (list :group "today" :name "Today"))))
      (ignore seed)
      (should (equal '("  [ ] Sweep  today  (Home)") (taskls-test-lines buffer)))
      (with-current-buffer buffer
        (goto-char (point-min))
        (setq taskls-test-answers '("Dust"))
        (taskls-test-after-change buffer (taskls-test-keys "a")))
      (should (equal '("  [ ] Sweep  today  (Home)" "  [ ] Dust  today  (Home)") (taskls-test-lines buffer))))))

(ert-deftest taskls-says-when-the-list-is-deleted ()
  "Deleting a list from the overview (k, confirmed) closes its buffer's view."
  (taskls-test-with-server nil
    (let* ((seed (taskls-test-seed "Doomed\e[31m" "A"))
           (buffer (taskls-test-open (list :list (car seed) :name "Doomed\e[31m")))
           (overview (taskls)))
      (taskls-test-wait (lambda () (cl-some (lambda (line) (string-match-p (regexp-quote "  Doomed\\e[31m ") line))
                                            (taskls-test-lines overview)))
                        "the overview")
      (with-current-buffer overview
        (goto-char (point-min))
        (search-forward "Doomed")
        (setq taskls-test-answers '(t))
        (taskls-test-keys "k"))
      (taskls-test-wait (lambda () (equal '("This list was deleted — press q to close") (taskls-test-lines buffer)))
                        "the closed view")
      ;; Messages quoting a stored name show it escaped.
      (should (equal "*taskls: Doomed\\e[31m*" (buffer-name buffer)))
      (should (taskls-test-said (regexp-quote "taskls: the list Doomed\\e[31m was deleted")))
      (should-not (taskls-test-said "\e"))
      (taskls-test-wait (lambda () (member "  No lists — press + to create one" (taskls-test-lines overview)))
                        "the overview without the list"))))

;;; Follow-up: undo words, the client's wall clock, warnings, columns

(ert-deftest taskls-says-what-undo-and-redo-did-in-words ()
  "u and r say the step as the server words it (`undid: delete 3 tasks'), never a method."
  (taskls-test-with-server nil
    (let* ((seed (taskls-test-seed "Inbox" "A" "B" "C" "D"))
           (buffer (taskls-test-open (list :list (car seed) :name "Inbox"))))
      (with-current-buffer buffer
        (goto-char (point-min))
        (taskls-test-keys "m m m")
        (setq taskls-test-answers '(t))
        (taskls-test-after-change buffer (taskls-test-keys "D"))
        (should (equal '("D") (taskls-test-titles)))
        (taskls-test-after-change buffer (taskls-test-keys "u"))
        (taskls-test-wait (lambda () (taskls-test-said "\\`taskls: undid: delete 3 tasks\\'")) "undid: delete 3 tasks")
        (should (equal '("A" "B" "C" "D") (taskls-test-titles)))
        (taskls-test-after-change buffer (taskls-test-keys "r"))
        (taskls-test-wait (lambda () (taskls-test-said "\\`taskls: redid: delete 3 tasks\\'")) "redid: delete 3 tasks")
        (should (equal '("D") (taskls-test-titles)))
        (goto-char (point-min))
        (taskls-test-after-change buffer (taskls-test-keys "x"))
        (taskls-test-after-change buffer (taskls-test-keys "u"))
        (taskls-test-wait (lambda () (taskls-test-said "\\`taskls: undid: complete 1 task\\'")) "undid: complete 1 task"))
      ;; A list renamed from the overview.
      (let ((overview (taskls)))
        (taskls-test-wait (lambda () (member "Lists" (taskls-test-lines overview))) "the overview")
        (with-current-buffer overview
          (goto-char (point-min))
          (search-forward "Inbox")
          (setq taskls-test-answers '("Outbox"))
          (taskls-test-keys "e")
          (taskls-test-wait (lambda () (cl-some (lambda (line) (string-match-p "\\`  Outbox " line))
                                                (taskls-test-lines overview)))
                            "the renamed list")
          (taskls-test-keys "u")
          (taskls-test-wait (lambda () (taskls-test-said "\\`taskls: undid: rename a list\\'")) "undid: rename a list")))
      (should-not (taskls-test-said "items/\\|lists/")))))

(ert-deftest taskls-shows-due-times-on-the-clients-wall-clock ()
  "A due written in another offset shows the day and time of the client's zone (dueLocal)."
  (taskls-test-with-server (list :zone "Pacific/Kiritimati")
    ;; 2026-11-25 10:00 UTC is 2026-11-26 00:00 in Kiritimati (+14); 17:00 UTC on the
    ;; 27th is 07:00 on the 28th there.
    (let* ((seed (taskls-test-seed "Inbox" '(:title "Call" :due "2026-11-27T17:00:00Z")))
           (buffer (taskls-test-open (list :list (car seed) :name "Inbox")))
           (id (car (cadr seed))))
      (should (equal "2026-11-26" (taskls-today)))
      (should (equal '("  [ ] Call  in 2 days 07:00") (taskls-test-lines buffer)))
      (with-current-buffer buffer
        (goto-char (point-min))
        ;; The task in full says the due in words the grammar reads back.
        (taskls-test-keys "RET")
        (should (string-match-p "^Due +in 2 days 07:00 (2026-11-28 07:00)$"
                                (with-current-buffer "*taskls task*" (buffer-string))))
        (let ((read (taskls-list--parse-due "2026-11-28 07:00")))
          (should (null (cdr read)))
          (should (time-equal-p (parse-iso8601-time-string "2026-11-27T17:00:00Z")
                                (parse-iso8601-time-string (car read)))))
        ;; d names the current due the same way.
        (let ((prompts nil))
          (setq taskls-test-answers '("2026-11-29 08:30"))
          (cl-letf (((symbol-function 'read-string)
                     (lambda (prompt &rest _) (push prompt prompts) (taskls-test--answer))))
            (taskls-test-after-change buffer (taskls-test-keys "d")))
          (should (string-match-p "\\`Due (now 2026-11-28 07:00; " (car prompts))))
        (should (equal '("  [ ] Call  in 3 days 08:30") (taskls-test-lines)))
        (should (equal "2026-11-29T08:30" (plist-get (taskls-call "items/get" (list :id id)) :dueLocal)))
        ;; A phrase that is no date brings the prompt back with it; nothing is set.
        (let ((prompts nil)
              (updates (gethash "items/update" taskls--stats 0)))
          (setq taskls-test-answers '("fryday" ""))
          (cl-letf (((symbol-function 'read-string)
                     (lambda (prompt &optional initial &rest _)
                       (push (cons prompt initial) prompts) (taskls-test--answer))))
            (should-error (taskls-test-keys "d") :type 'user-error))
          (should (equal "fryday" (cdr (car prompts))))
          (should (string-match-p "\\`Due (fryday is not a date" (car (car prompts))))
          (should (= updates (gethash "items/update" taskls--stats 0))))
        (let ((echoed nil))
          (should (taskls-list--eldoc (lambda (text &rest _) (setq echoed text))))
          (taskls-test-wait (lambda () echoed) "the echo")
          (should (equal "due 2026-11-29 08:30" echoed)))))))

(ert-deftest taskls-filter-with-a-warning-is-not-applied ()
  "/ with a warning: nothing is applied; the prompt comes back with the text and the warning."
  (taskls-test-with-server nil
    (let* ((seed (taskls-test-seed "Inbox" "milk" "bread"))
           (buffer (taskls-test-open (list :list (car seed) :name "Inbox"))))
      (with-current-buffer buffer
        (let ((prompts nil)
              (filters (gethash "view/filter" taskls--stats 0)))
          (setq taskls-test-answers '("milk !urgent" "milk !urgent" "milk"))
          (cl-letf (((symbol-function 'read-string)
                     (lambda (prompt &optional initial &rest _)
                       (push (cons prompt initial) prompts) (taskls-test--answer))))
            (taskls-test-after-change buffer (taskls-test-keys "/")))
          (should (null taskls-test-answers))
          (setq prompts (nreverse prompts))
          (should (equal '("Filter (empty: all): ") (car prompts)))
          (dolist (prompt (cdr prompts))
            (should (equal "milk !urgent" (cdr prompt)))
            (should (string-match-p "\\`Filter (!urgent is not a priority" (car prompt))))
          (should (equal '("milk") (taskls-test-titles)))
          (should (= (1+ filters) (gethash "view/filter" taskls--stats)))
          ;; From Lisp: refused with the warning, the filter stays.
          (should (string-match-p "fryday is not a date"
                                  (cadr (should-error (taskls-filter "due<fryday") :type 'user-error))))
          (should (= (1+ filters) (gethash "view/filter" taskls--stats)))
          (should (equal "milk" taskls-view--filter-text)))))))

(defun taskls-test--cells-before (regexp line)
  "The display cells of LINE before the first match of REGEXP, or nil."
  (let ((index (string-match regexp line)))
    (and index (string-width (substring line 0 index)))))

(ert-deftest taskls-lines-up-columns-in-cells ()
  "Due, priority and tags start at the same cell on every row; titles are cut with … by cells."
  (taskls-test-with-server nil
    (let* ((seed (taskls-test-seed
                  "Inbox"
                  '(:title "Short" :due "2026-11-12T09:30:00Z" :priority "high" :tags ["a"])
                  '(:title "日本語のタイトルはとても長いのでこの列には収まりません" :due "2026-11-26"
                           :priority "low" :tags ["b"] :notes "n")
                  '(:title "A very long title that goes on and on, well past the title column"
                           :priority "medium" :tags ["c"])
                  '(:title "Party 🎉 time" :due "2026-11-25" :tags ["d"])
                  "Plain"))
           (buffer (taskls-test-open (list :list (car seed) :name "Inbox"))))
      (with-current-buffer buffer
        (set-window-buffer (selected-window) buffer)
        (let* ((width taskls-view--title-width)
               (due (+ 8 width 2))
               (priority (+ due (taskls--column (quote due)) 2))
               (tags (+ priority 3 2))
               (lines (taskls-test-raw-lines)))
          (should (= width (taskls-title-width (window-max-chars-per-line))))
          (should (equal "    [ ] Plain" (nth 4 lines)))
          (should (= due (taskls-test--cells-before "13 days ago 09:30" (nth 0 lines))))
          (should (= due (taskls-test--cells-before "tomorrow" (nth 1 lines))))
          (should (= due (taskls-test--cells-before "today" (nth 3 lines))))
          (should (= priority (taskls-test--cells-before "!!!" (nth 0 lines))))
          (should (= priority (taskls-test--cells-before "!" (nth 1 lines))))
          (should (= priority (taskls-test--cells-before "!!" (nth 2 lines))))
          (dotimes (index 4)
            (should (= tags (taskls-test--cells-before "#" (nth index lines))))
            (should (<= (string-width (nth index lines)) (window-max-chars-per-line))))
          ;; Long titles are cut with … to the title column; the notes mark stays inside it.
          (should (string-match-p "\\`    \\[ \\] 日本語.*… \\+ +tomorrow" (nth 1 lines)))
          (should (string-match-p "\\`    \\[ \\] A very long title.*…  +!! +#c\\'" (nth 2 lines)))
          (should (string-match-p "\\`    \\[ \\] Party 🎉 time +today +#d\\'" (nth 3 lines)))
          (should (<= (taskls-test--cells-before "…" (nth 1 lines)) (+ 8 width -3)))
          (should (= (taskls-test--cells-before "…" (nth 2 lines)) (+ 8 width -1))))
        ;; A narrower window: the rows are written again with a narrower title column.
        (let ((narrow (split-window-right)))
          (unwind-protect
              (progn
                (taskls-view-schedule-check)
                (taskls-test-wait (lambda () (= taskls-view--title-width
                                                (taskls-title-width (window-max-chars-per-line))))
                                  "the narrower title column")
                (should (< taskls-view--title-width 35))
                (should (= (+ 8 taskls-view--title-width 2 (taskls--column (quote due)) 2 3 2)
                           (taskls-test--cells-before "#" (nth 2 (taskls-test-raw-lines)))))
                (taskls-test-check-buffer))
            (delete-window narrow)))))))

;;; Help, bookmarks, eldoc

(ert-deftest taskls-help-documents-every-key ()
  "? shows a help buffer naming every key and command of the list buffer."
  (taskls-test-with-server nil
    (let* ((seed (taskls-test-seed "Inbox" "A"))
           (buffer (taskls-test-open (list :list (car seed) :name "Inbox"))))
      (with-current-buffer buffer (taskls-test-keys "?"))
      (let ((help (with-current-buffer "*taskls help*" (buffer-string))))
        ;; Every key the three maps define, meta keys included, with its command.
        (dolist (map (list taskls-list-mode-map taskls-overview-mode-map taskls-notes-mode-map))
          (map-keymap-internal
           (lambda (event binding)
             (cond ((keymapp binding)
                    (map-keymap-internal
                     (lambda (inner command)
                       (when (symbolp command)
                         (should (string-match-p (regexp-quote (symbol-name command)) help)))
                       (when (eq event 27)
                         (should (string-match-p (regexp-quote (concat "M-" (key-description (vector inner))))
                                                 help))))
                     binding))
                   ((symbolp binding)
                    (should (string-match-p (regexp-quote (symbol-name binding)) help))
                    (should (string-match-p (concat "  \\(.*, \\)?" (regexp-quote (key-description (vector event)))
                                                    "\\(,\\| \\)")
                                            help)))))
           map))
        (should (string-match-p "M-p, M-<up>  *taskls-move-up" help))
        (should (string-match-p "C-c C-c  *taskls-notes-save" help))
        (should (string-match-p "Quick entry" help))))))

(ert-deftest taskls-bookmarks-a-list-with-its-view ()
  "A bookmark reopens the list with its sort and filter."
  (taskls-test-with-server nil
    (let* ((seed (taskls-test-seed "Inbox" "b milk" "a milk" "bread"))
           (buffer (taskls-test-open (list :list (car seed) :name "Inbox"))))
      (with-current-buffer buffer
        (taskls-test-after-change buffer (taskls-sort "title"))
        (taskls-test-after-change buffer (taskls-filter "milk")))
      (let ((record (with-current-buffer buffer (funcall bookmark-make-record-function))))
        (kill-buffer buffer)
        (taskls-bookmark-jump record)
        (let ((reopened (current-buffer)))
          (should (eq 'taskls-list-mode major-mode))
          (taskls-test-wait (lambda () (buffer-local-value 'taskls-view--version reopened)) "the bookmark")
          (should (equal '("a milk" "b milk") (taskls-test-titles reopened))))))))

(ert-deftest taskls-echoes-the-task-at-point ()
  "The eldoc function echoes the notes and the full due."
  (taskls-test-with-server nil
    (let* ((seed (taskls-test-seed "Inbox" '(:title "A" :notes "first\nsecond" :due "2026-11-26")))
           (buffer (taskls-test-open (list :list (car seed) :name "Inbox")))
           (echoed nil))
      (with-current-buffer buffer
        (goto-char (point-min))
        (should (taskls-list--eldoc (lambda (text &rest _) (setq echoed text))))
        (taskls-test-wait (lambda () echoed) "the echo")
        (should (equal "due 2026-11-26 — first" echoed))))))

(provide 'taskls-tests)
;;; taskls-tests.el ends here
