;;; run.el --- Run the taskls ERT suite and print its closing line -*- lexical-binding: t; -*-

;;; Commentary:

;; emacs -Q --batch -L editors/emacs -L editors/emacs/tests -l editors/emacs/tests/run.el
;; Environment: TASKLS_BIN (the server), TASKLS_TEST_TMP (a scratch
;; directory), TASKLS_TEST_SELECTOR (a regexp of test names; empty: all).
;; Prints `emacs: N passed, N failed' (skipped tests are not passed: a line
;; says how many) and exits 1 when a test failed.

;;; Code:

(require 'ert)
(setenv "TASKLS_STORE" nil)
(setq load-prefer-newer t)
(require 'taskls-tests)
(require 'taskls-tree-tests)
(require 'taskls-repeat-tests)

(let* ((selector (let ((regexp (getenv "TASKLS_TEST_SELECTOR")))
                   (if (and regexp (not (string-empty-p regexp))) regexp t)))
       (stats (ert-run-tests-batch selector))
       (skipped (ert-stats-skipped stats))
       (passed (- (ert-stats-completed-expected stats) skipped))
       (failed (+ (ert-stats-completed-unexpected stats)
                  (- (ert-stats-total stats) (ert-stats-completed stats)))))
  (when (> skipped 0)
    (princ (format "emacs: %d skipped (a tool they need is missing: see above)\n" skipped)
           #'external-debugging-output))
  (princ (format "emacs: %d passed, %d failed\n" passed failed) #'external-debugging-output)
  (kill-emacs (if (and (zerop failed) (> passed 0)) 0 1)))

;;; run.el ends here
