;;; taskls-client.el --- The taskls server of this Emacs -*- lexical-binding: t; -*-

;; Copyright (C) 2026 The taskls authors

;; This file is part of taskls.  See taskls.el for the package's headers.

;;; Commentary:

;; One `taskls' server per Emacs, shared by every buffer: started on
;; demand with the built-in jsonrpc.el (LSP framing), requests queued
;; until `initialize' is answered, every request asynchronous (on Emacs
;; 28 the synchronous `jsonrpc-request' strands a notification that
;; arrives in the same read as its reply), errors turned into one line in
;; the echo area, and notifications routed to the buffer that shows each
;; view.  Notifications for a view whose snapshot has not been applied
;; yet are queued until it is.  The overview (`lists/list' with watch) is
;; kept here too: its `today' is the day every due date is shown
;; relative to.

;;; Code:

(require 'cl-lib)
(require 'jsonrpc)
(require 'subr-x)

(defgroup taskls nil
  "Task lists kept live by the taskls server."
  :group 'applications
  :prefix "taskls-"
  :link '(url-link "https://github.com/taskls/taskls"))

(defcustom taskls-program "taskls"
  "The taskls executable.
A file name, or a name looked up in the variable `exec-path'."
  :type 'string)

(defcustom taskls-program-arguments nil
  "Extra arguments for `taskls serve', after the store (strings)."
  :type '(repeat string))

(defcustom taskls-store nil
  "The store directory, or nil for the server's default.
The default is $TASKLS_STORE, else $XDG_DATA_HOME/taskls (or
~/.local/share/taskls).  When set, it is passed as `--store' and wins
over $TASKLS_STORE."
  :type '(choice (const :tag "The server's default" nil) directory))

(defcustom taskls-time-zone nil
  "The IANA time zone of your day, such as \"Europe/Paris\", or nil.
Today, Tomorrow and Overdue, and due dates said as \"today\" or
\"in 3 days\", follow this zone; nil is the machine's local zone."
  :type '(choice (const :tag "Local zone" nil) string))

(defcustom taskls-log-events nil
  "Non-nil to log every message to and from the server.
The log is in the buffer `taskls-events-buffer' shows.  It slows large
lists down, so it is off by default.  Takes effect when the server
next starts."
  :type 'boolean)

(defcustom taskls-reminders t
  "Non-nil to be told of reminders as they fire.
The server is asked for them (`reminders/watch') when it starts; each
one is shown with `message', and with `notifications-notify' when a
D-Bus session can show it (see `taskls-reminder-notifications').
Takes effect when the server next starts."
  :type 'boolean)

(defcustom taskls-request-timeout 30
  "Seconds to wait for the server's answer to a request."
  :type 'number)

(defvar taskls--connection nil
  "The connection to the server (jsonrpc.el's process connection), or nil.")

(defvar taskls--initialized nil
  "Non-nil once the server has answered `initialize'.")

(defvar taskls--queue nil
  "Requests made before `initialize' was answered, newest first.
Each is a list (METHOD PARAMS SUCCESS ERROR).")

(defvar taskls--views (make-hash-table :test #'equal)
  "View id -> the buffer that shows it.")

(defvar taskls--early (make-hash-table :test #'equal)
  "View id -> notifications that arrived before its buffer knew the id.
Each is a cons (METHOD . PARAMS), newest first.")

(defvar taskls--server-info nil
  "The `serverInfo' of the `initialize' result.")

(defvar taskls--overview nil
  "The latest overview (`lists/list' result or `lists/changed'), a plist.")

(defvar taskls-overview-functions nil
  "Functions called with the overview plist whenever it changes.")

(defvar taskls-reminder-functions nil
  "Functions called with the params of each `reminder/fired' notification.")

(defvar taskls-server-exit-functions nil
  "Functions called with no argument when the server exits.")

(defvar taskls--stats (make-hash-table :test #'equal)
  "Requests sent, by method name (for tests and `taskls-doctor').")

;;; Escaping stored text

(defun taskls--escape-char-p (char)
  "Whether CHAR is a control or a bidi override that is shown escaped."
  (or (<= char #x1f)
      (<= #x7f char #x9f)
      (<= #x202a char #x202e)
      (<= #x2066 char #x2069)))

(defun taskls-displayed (text)
  "TEXT with every control character shown as an escape.
ESC is \\e, newline \\n, tab \\t, carriage return \\r, the other C0
and C1 controls, DEL and the bidi overrides and isolates \\u{HEX}.  A
backslash doubles when what follows it reads as an escape, so the
shown text reads back to exactly one stored text.  This is the REPL's
`displayed'."
  (if (not (string-match-p "[\\\0-\37\177-\237\u202a-\u202e\u2066-\u2069]" text))
      text
    (let ((length (length text)) (index 0) parts)
      (while (< index length)
        (let ((char (aref text index))
              (next (and (< (1+ index) length) (aref text (1+ index)))))
          (push (cond ((eq char ?\\)
                       (if (and next (or (memq next '(?\\ ?e ?n ?r ?t ?u))
                                         (taskls--escape-char-p next)))
                           "\\\\" "\\"))
                      ((eq char ?\n) "\\n")
                      ((eq char ?\t) "\\t")
                      ((eq char ?\r) "\\r")
                      ((eq char 27) "\\e")
                      ((taskls--escape-char-p char) (format "\\u{%X}" char))
                      (t (string char)))
                parts))
        (setq index (1+ index)))
      (apply #'concat (nreverse parts)))))

;;; Messages to the user

(defun taskls--say (format-string &rest args)
  "Show one line, FORMAT-STRING with ARGS, prefixed with \"taskls: \".
Only the first line of the text is shown."
  (let ((text (apply #'format format-string args)))
    (message "taskls: %s" (car (split-string text "\n")))))

(defmacro taskls--guard (&rest body)
  "Run BODY; an error in it becomes one line in the echo area."
  (declare (indent 0) (debug t))
  `(condition-case err
       (progn ,@body)
     (error (taskls--say "internal error: %s" (error-message-string err)) nil)))

;;; Values

(defun taskls--object (&rest plist)
  "A JSON object of PLIST, without its members whose value is nil.
An empty result is an empty hash table, which jsonrpc.el sends as {}."
  (let (members)
    (while plist
      (when (cadr plist)
        (setq members (plist-put members (car plist) (cadr plist))))
      (setq plist (cddr plist)))
    (or members (make-hash-table))))

(defun taskls--true-p (value)
  "Whether VALUE is JSON true (false arrives as `:json-false')."
  (and value (not (eq value :json-false))))

(defun taskls--error-reason (err)
  "The `data.reason' of ERR, a JSON-RPC error plist, or nil."
  (let ((data (plist-get err :data)))
    (and (listp data) (plist-get data :reason))))

;;; The process

(defun taskls--command ()
  "The command line to start the server with."
  (append (list (or (executable-find taskls-program)
                    (expand-file-name taskls-program))
                "serve")
          (and taskls-store (list "--store" (expand-file-name taskls-store)))
          taskls-program-arguments))

(defun taskls-running-p ()
  "Return non-nil when the server is running."
  (and taskls--connection (jsonrpc-running-p taskls--connection)))

(defun taskls--connection-arguments ()
  "The initargs that switch the events log on or off.
jsonrpc 1.0.14 (Emacs 28) takes `:events-buffer-scrollback-size';
newer versions take `:events-buffer-config'."
  (let ((size (if taskls-log-events nil 0)))
    (if (slot-exists-p 'jsonrpc-connection '-events-buffer-config)
        (list :events-buffer-config (list :size size))
      (list :events-buffer-scrollback-size size))))

(defun taskls--start ()
  "Start the server and send `initialize'.  Signal `user-error' if impossible."
  (let ((command (taskls--command)))
    (unless (file-executable-p (car command))
      (user-error "Cannot start the taskls server: %s is not executable (set `taskls-program')"
                  taskls-program))
    (setq taskls--initialized nil
          taskls--queue nil)
    (let* ((process
            (make-process :name "taskls"
                          :command command
                          :connection-type 'pipe
                          :coding 'utf-8-emacs-unix
                          :noquery t
                          :stderr (get-buffer-create " *taskls stderr*")))
           (connection
            (apply #'make-instance 'jsonrpc-process-connection
                   :name "taskls"
                   :process process
                   :notification-dispatcher #'taskls--dispatch
                   :on-shutdown #'taskls--on-shutdown
                   (taskls--connection-arguments))))
      (setq taskls--connection connection)
      (jsonrpc-async-request
       connection :initialize
       (list :processId (emacs-pid)
             :clientInfo (list :name "taskls.el" :version emacs-version)
             :initializationOptions
             (taskls--object :timeZone taskls-time-zone))
       :success-fn
       (lambda (result)
         (when (eq connection taskls--connection)
           (setq taskls--server-info (plist-get result :serverInfo)
                 taskls--initialized t)
           (jsonrpc-notify connection :initialized (make-hash-table))
           (taskls--watch-overview)
           ;; A server older than reminders does not know the method: no word.
           (when taskls-reminders
             (taskls--send "reminders/watch" (list :watch t) nil
                           (lambda (err) (eql (plist-get err :code) -32601))))
           (let ((queue (reverse taskls--queue)))
             (setq taskls--queue nil)
             (dolist (request queue) (apply #'taskls--send request)))))
       :error-fn
       (lambda (err)
         (taskls--say "the server refused initialize: %s" (taskls--describe-error err)))
       :timeout taskls-request-timeout))))

(defun taskls--on-shutdown (connection)
  "Forget CONNECTION, which has exited; tell the buffers."
  (when (eq connection taskls--connection)
    (setq taskls--connection nil
          taskls--initialized nil
          taskls--queue nil)
    (let ((process (jsonrpc--process connection)))
      (unless (and (eq (process-status process) 'exit)
                   (zerop (process-exit-status process)))
        (taskls--say "the server exited with code %s" (process-exit-status process))))
    (clrhash taskls--views)
    (clrhash taskls--early)
    (run-hooks 'taskls-server-exit-functions)))

(defun taskls-ensure ()
  "Start the server unless it is running."
  (unless (taskls-running-p) (taskls--start)))

;;;###autoload
(defun taskls-stop ()
  "Stop the server: `shutdown', `exit', then wait for it to end."
  (interactive)
  (let ((connection taskls--connection))
    (when connection
      (setq taskls--connection nil
            taskls--initialized nil
            taskls--queue nil)
      (clrhash taskls--views)
      (clrhash taskls--early)
      (when (jsonrpc-running-p connection)
        (let ((process (jsonrpc--process connection))
              (deadline (+ (float-time) 2)))
          (ignore-errors (jsonrpc-async-request connection :shutdown nil
                                                :success-fn #'ignore :error-fn #'ignore))
          (ignore-errors (jsonrpc-notify connection :exit nil))
          (ignore-errors (process-send-eof process))
          (while (and (process-live-p process) (< (float-time) deadline))
            (accept-process-output process 0.05))
          (when (process-live-p process) (delete-process process))))
      (ignore-errors (jsonrpc-shutdown connection t))
      (run-hooks 'taskls-server-exit-functions))))

(defvar taskls-server-start-functions nil
  "Functions called with no argument after `taskls-restart' started the server.")

;;;###autoload
(defun taskls-restart ()
  "Stop the server and start a new one; open buffers reopen their views."
  (interactive)
  (taskls-stop)
  (taskls-ensure)
  (run-hooks 'taskls-server-start-functions))

;;; Requests

(defun taskls--describe-error (err)
  "One line for ERR, a JSON-RPC error plist.
The server's message may quote stored names and what was typed: it is
shown through `taskls-displayed'."
  (taskls-displayed (or (plist-get err :message) "request failed")))

(defun taskls--send (method params success error)
  "Send METHOD with PARAMS now; see `taskls-request' for SUCCESS and ERROR."
  (puthash method (1+ (gethash method taskls--stats 0)) taskls--stats)
  (let ((connection taskls--connection))
    (jsonrpc-async-request
     connection (intern method) params
     :success-fn
     (lambda (result)
       (when success (taskls--guard (funcall success result))))
     :error-fn
     (lambda (err)
       (unless (and error (taskls--guard (funcall error err)))
         (taskls--say "%s" (taskls--describe-error err))))
     :timeout-fn
     (lambda ()
       (unless (and error (taskls--guard
                            (funcall error (list :code -1 :message
                                                 (format "%s timed out" method)))))
         (taskls--say "%s timed out" method)))
     :timeout taskls-request-timeout)))

(defun taskls-request (method params &optional success error)
  "Send the request METHOD (a string) with PARAMS, asynchronously.
Start the server when needed.  SUCCESS is called with the result.
ERROR is called with the error plist (:code :message :data); unless
it returns non-nil, the error is shown as one line."
  (taskls-ensure)
  (if taskls--initialized
      (taskls--send method params success error)
    (push (list method params success error) taskls--queue))
  nil)

(defun taskls-call (method params)
  "Send METHOD with PARAMS and wait for the answer; return the result.
For commands that must read an answer before they go on (a quick-entry
line read by the server).  Notifications arriving meanwhile are
handled in order.  Signal `user-error' with the server's message when
the request is refused."
  (let ((done nil) result failure
        (deadline (+ (float-time) taskls-request-timeout)))
    (taskls-request method params
                    (lambda (value) (setq done t result value))
                    (lambda (err) (setq done t failure err) t))
    (while (and (not done) (< (float-time) deadline) (taskls-running-p))
      (accept-process-output (jsonrpc--process taskls--connection) 0.05))
    (cond (failure (user-error "%s" (taskls--describe-error failure)))
          ((not done) (user-error "No answer from taskls to %s" method))
          (t result))))

;;; Notifications

(defun taskls--dispatch (_connection method params)
  "Route the notification METHOD with PARAMS (from the server)."
  (taskls--guard
    (pcase method
      ('lists/changed (taskls--set-overview params))
      ('reminder/fired (run-hook-with-args 'taskls-reminder-functions params))
      ((or 'view/changed 'view/closed)
       (let* ((view (plist-get params :view))
              (buffer (gethash view taskls--views)))
         (cond ((buffer-live-p buffer)
                (with-current-buffer buffer
                  (if (eq method 'view/changed)
                      (taskls-view--on-changed params)
                    (taskls-view--on-closed params))))
               (buffer (remhash view taskls--views))
               (t (let ((queued (gethash view taskls--early)))
                    (when (< (length queued) 10000)
                      (puthash view (cons (cons method params) queued)
                               taskls--early))))))))))

(declare-function taskls-view--on-changed "taskls-view" (params))
(declare-function taskls-view--on-closed "taskls-view" (params))

(defun taskls-register-view (view buffer)
  "Route VIEW's notifications to BUFFER, first those that came before."
  (puthash view buffer taskls--views)
  (let ((queued (reverse (gethash view taskls--early))))
    (remhash view taskls--early)
    (dolist (message queued)
      (taskls--dispatch taskls--connection (car message) (cdr message)))))

(defun taskls-unregister-view (view)
  "Stop routing VIEW's notifications."
  (remhash view taskls--views)
  (remhash view taskls--early))

;;; The overview and the client's day

(defun taskls--watch-overview ()
  "Request the overview and watch it from now on."
  (taskls--send "lists/list" (list :watch t) #'taskls--set-overview nil))

(defun taskls--set-overview (overview)
  "Keep OVERVIEW and tell the listeners."
  (let ((new-day (not (equal (plist-get overview :today)
                             (plist-get taskls--overview :today)))))
    (setq taskls--overview overview)
    (run-hook-with-args 'taskls-overview-functions overview)
    (when new-day (run-hooks 'taskls-day-change-functions))))

(defvar taskls-day-change-functions nil
  "Functions called with no argument when the client's day changes.")

(defun taskls-today ()
  "The client's day as the server last said it (`YYYY-MM-DD'), or nil."
  (plist-get taskls--overview :today))

(defun taskls-list-name (id)
  "The name of the list ID, from the overview, or nil."
  (cl-loop for list across (or (plist-get taskls--overview :lists) [])
           when (equal (plist-get list :id) id) return (plist-get list :name)))

(defun taskls-lists ()
  "The lists of the overview, a list of plists in their order."
  (append (plist-get taskls--overview :lists) nil))

(defun taskls-smart-lists ()
  "The smart lists of the overview, a list of plists in their order."
  (append (plist-get taskls--overview :smartLists) nil))

(defun taskls-smart-list (id)
  "The smart list ID as the overview last said it (a plist), or nil."
  (cl-find id (taskls-smart-lists) :key (lambda (smart) (plist-get smart :id)) :test #'equal))

;;; Diagnostics

;;;###autoload
(defun taskls-events-buffer ()
  "Show the log of messages to and from the server.
Messages are logged only when `taskls-log-events' is non-nil."
  (interactive)
  (unless taskls--connection (user-error "The taskls server is not running"))
  (display-buffer (jsonrpc-events-buffer taskls--connection)))

;;;###autoload
(defun taskls-doctor ()
  "Show the server program, its version, the store and the connection."
  (interactive)
  (let* ((program (executable-find taskls-program))
         (version (and program
                       (with-temp-buffer
                         (ignore-errors (call-process program nil t nil "--version"))
                         (string-trim (buffer-string)))))
         (store (plist-get taskls--overview :store)))
    (with-help-window "*taskls doctor*"
      (princ (format "Program:    %s\n" (or program (format "%s (not found)" taskls-program))))
      (princ (format "Version:    %s\n" (or version "unknown")))
      (princ (format "Command:    %s\n" (mapconcat #'identity (taskls--command) " ")))
      (princ (format "Store:      %s\n" (or taskls-store "the server's default")))
      (princ (format "Time zone:  %s\n" (or taskls-time-zone "local")))
      (princ (format "Running:    %s\n" (if (taskls-running-p) "yes" "no")))
      (when taskls--server-info
        (princ (format "Server:     %s %s\n" (plist-get taskls--server-info :name)
                       (plist-get taskls--server-info :version))))
      (when store
        (princ (format "Store state: %s %s\n" (plist-get store :state)
                       (or (plist-get store :message) ""))))
      (princ (format "Views:      %d open\n" (hash-table-count taskls--views)))
      (princ (format "Reminders:  %s\n" (if taskls-reminders "watched" "not asked for (`taskls-reminders')")))
      (princ (format "Today:      %s\n" (or (taskls-today) "unknown"))))))

(provide 'taskls-client)
;;; taskls-client.el ends here
