;;; taskls-pty-driver.el --- Scrolling under real redisplay, for taskls-tests -*- lexical-binding: t; -*-

;;; Commentary:

;; Loaded by `emacs -nw' in a pseudo-terminal (see the test
;; `taskls-follows-scrolling-under-real-redisplay'): opens a 300-task
;; list, scrolls with SPC and M->, and writes what it saw to the file
;; $TASKLS_PTY_OUT, one line per check, then exits.  Batch mode does no
;; redisplay, so `window-scroll-functions' only run here.

;;; Code:

(require 'taskls)

(defun taskls-pty--wait (predicate)
  "Redisplay and process events until PREDICATE is true (10 s at most)."
  (let ((deadline (+ (float-time) 10)))
    (while (and (not (funcall predicate)) (< (float-time) deadline))
      (redisplay t)
      (accept-process-output nil 0.01))
    (funcall predicate)))

(defun taskls-pty--run ()
  "Drive the list buffer and write the results."
  (let (results buffer)
    (condition-case err
        (progn
          (setq taskls-program (getenv "TASKLS_BIN")
                taskls-store (getenv "TASKLS_PTY_STORE")
                taskls-margin 20)
          (let ((list (plist-get (plist-get (taskls-call "lists/create" (list :name "Long")) :list) :id)))
            (dotimes (i 300)
              (taskls-request "items/create" (list :list list :title (format "Task %d" (1+ i)))))
            (taskls-call "server/ping" nil)
            (setq buffer (taskls-open (list :list list :name "Long"))))
          (taskls-pty--wait (lambda () (buffer-local-value 'taskls-view--version buffer)))
          (delete-other-windows)
          (push (format "open %d %d" (buffer-local-value 'taskls-view--end buffer)
                        (buffer-local-value 'taskls-view--count buffer))
                results)
          ;; Scrolling outside a command (no post-command-hook): only redisplay's
          ;; window-scroll-functions can move the window.
          (with-current-buffer buffer
            (dotimes (_ 4) (scroll-up-command) (redisplay t)))
          (push (format "scrolled %s"
                        (taskls-pty--wait
                         (lambda () (with-current-buffer buffer
                                      (let ((top (1- (line-number-at-pos (window-start)))))
                                        (and (null taskls-view--window-request)
                                             (> top 0)
                                             (<= taskls-view--start top)
                                             (>= taskls-view--end (+ top (window-body-height)))))))))
                results)
          (execute-kbd-macro (kbd "M->"))
          (push (format "end %s"
                        (taskls-pty--wait
                         (lambda () (with-current-buffer buffer
                                      (save-excursion
                                        (goto-char (point-max))
                                        (forward-line -1)
                                        (equal "Task 300" (plist-get (taskls-view-row-at) :title)))))))
                results)
          (push (format "requests %d" (with-current-buffer buffer
                                        (taskls-view-stat :window-requests)))
                results))
      (error (push (format "error %s" (error-message-string err)) results)))
    (with-temp-file (getenv "TASKLS_PTY_OUT")
      (insert (mapconcat #'identity (nreverse results) "\n") "\n"))
    (taskls-stop)
    (kill-emacs 0)))

(run-at-time 0 nil #'taskls-pty--run)

(provide 'taskls-pty-driver)
;;; taskls-pty-driver.el ends here
