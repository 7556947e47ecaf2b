;;; taskls-repeat-tests.el --- ERT tests of repeating tasks, reminders and smart lists -*- lexical-binding: t; -*-

;;; Commentary:

;; Issue 19 against the real server, on its manual clock (2026-11-25
;; 10:00 UTC): repeating tasks (↻ after the due, x moving one on and
;; saying its next due, X skipping, R setting and stopping a repeat,
;; refusals in words, the repeat and history of the task in full);
;; reminders (watched from the start, fired by `debug/setClock' and said
;; once, snoozed to fire again, dismissed off the list, late, a desktop
;; notification's actions); smart lists (the overview's section with
;; live counts, F saving a buffer's filter, opening, renaming, deleting
;; one and the buffer on it saying so).

;;; Code:

(require 'cl-lib)
(require 'ert)
(require 'taskls)
(require 'taskls-test-helpers)

(defun taskls-repeat-test-said (text)
  "Wait until the message TEXT (exactly) was shown."
  (taskls-test-wait (lambda () (member text taskls-test-messages)) (format "the message %s" text)))

(defun taskls-repeat-test-item (id)
  "The item ID in full, from the server."
  (taskls-call "items/get" (list :id id)))

;;; Repeating tasks

(ert-deftest taskls-repeat-escapes-repeat-words-in-the-edit-prompt ()
  "A title's `every' and repeater cookies are escaped, so the title reads back as itself."
  (should (equal "\\every day \\+1w \\.+3d \\++2m everyone" (taskls-escape-title "every day +1w .+3d ++2m everyone")))
  (should (equal "Pay +1 rent" (taskls-escape-title "Pay +1 rent")))
  (should (equal "\\Remind Bob \\remind 1h before" (taskls-escape-title "Remind Bob remind 1h before"))))

(ert-deftest taskls-repeating-tasks-move-on-skip-and-stop ()
  "↻ after the due; x moves a repeating task on and says where; X skips; R and off; refusals in words."
  (taskls-test-with-server nil
    (let* ((seed (taskls-test-seed "Home" "Plain"
                                   '(:title "Ended" :due "2026-11-20" :repeat (:rule "FREQ=DAILY;COUNT=1" :from "due"))))
           (buffer (taskls-test-open (list :list (car seed) :name "Home"))))
      (with-current-buffer buffer
        ;; Quick entry sends the repeat on to items/create.
        (setq taskls-test-answers '("Pay rent ^2026-11-01 every month on the 1st"))
        (taskls-test-after-change buffer (taskls-test-keys "a"))
        (should (equal '("  [ ] Plain" "  [ ] Ended  5 days ago ↻" "  [ ] Pay rent  2026-11-01 ↻")
                       (taskls-test-lines)))
        (goto-char (point-min))
        (search-forward "↻")
        (should (eq 'taskls-repeat (get-text-property (1- (point)) 'face)))
        ;; x: the task moves on to its next due instead of becoming done, said in one line.
        (taskls-test-goto-title "Pay rent")
        (taskls-test-after-change buffer (taskls-test-keys "x"))
        (taskls-repeat-test-said "taskls: \"Pay rent\" repeats (every month on the 1st): next due in 6 days")
        (should (equal "  [ ] Pay rent  in 6 days ↻" (nth 2 (taskls-test-lines))))
        ;; X skips the occurrence.
        (taskls-test-goto-title "Pay rent")
        (taskls-test-after-change buffer (taskls-test-keys "X"))
        (taskls-repeat-test-said "taskls: skipped \"Pay rent\": next due 2027-01-01")
        (should (equal "  [ ] Pay rent  2027-01-01 ↻" (nth 2 (taskls-test-lines))))
        ;; Refusals in words; nothing changes.
        (taskls-test-goto-title "Plain")
        (taskls-test-keys "X")
        (taskls-repeat-test-said "taskls: \"Plain\" does not repeat: give it a repeat first (R, then every week)")
        (taskls-test-goto-title "Ended")
        (taskls-test-keys "X")
        (taskls-repeat-test-said
         "taskls: the repeat of \"Ended\" has ended: there is no next due to skip to; x marks it done")
        ;; The task in full: its repeat in the server's words, its history, on the client's day.
        (taskls-test-goto-title "Pay rent")
        (taskls-test-keys "RET")
        (let ((text (with-current-buffer "*taskls task*" (buffer-string))))
          (should (string-match-p "^Repeats +every month on the 1st$" text))
          (should (string-match-p "^History +1 done, 1 skipped; last skipped 2026-11-25$" text)))
        ;; R: words that are no repeat bring the prompt back; a task without a due gets the first day.
        (taskls-test-goto-title "Plain")
        (setq taskls-test-answers '("soon" "every week"))
        (taskls-test-after-change buffer (taskls-test-keys "R"))
        (should (null taskls-test-answers))
        (should (equal "  [ ] Plain  today ↻" (nth 0 (taskls-test-lines))))
        (taskls-repeat-test-said "taskls: repeats every week: \"Plain\"")
        (let ((echoed nil))
          (taskls-test-goto-title "Plain")
          (should (taskls-list--eldoc (lambda (text &rest _) (setq echoed text))))
          (taskls-test-wait (lambda () echoed) "the echo")
          (should (equal "due 2026-11-25 — repeats every week" echoed)))
        ;; off (or M-x taskls-stop-repeating) stops it; the due stays.
        (setq taskls-test-answers '("off"))
        (taskls-test-after-change buffer (taskls-test-keys "R"))
        (should (equal "  [ ] Plain  today" (nth 0 (taskls-test-lines))))
        (taskls-repeat-test-said "taskls: no longer repeating: \"Plain\"")
        ;; e with a repeat phrase and no due keeps the due the task has.
        (taskls-test-goto-title "Ended")
        (setq taskls-test-answers '("Ended every 2 weeks"))
        (taskls-test-after-change buffer (taskls-test-keys "e"))
        (let ((item (taskls-repeat-test-item (nth 1 (cadr seed)))))
          (should (equal "2026-11-20" (plist-get item :due)))
          (should (equal "FREQ=WEEKLY;INTERVAL=2" (plist-get (plist-get item :repeat) :rule))))
        (taskls-test-goto-title "Ended")
        (taskls-test-after-change buffer (call-interactively #'taskls-stop-repeating))
        (should (equal "  [ ] Ended  5 days ago" (nth 1 (taskls-test-lines))))
        (should (null (plist-get (taskls-repeat-test-item (nth 1 (cadr seed))) :repeat)))))))

;;; Reminders

(ert-deftest taskls-says-alerts-and-history-in-words ()
  "Alerts read relative to their task's due; a history says its counts and its last day."
  (let ((taskls-time-zone "UTC"))
    (should (equal "1 hour before" (taskls-alert-words '(:offset -60) "2026-11-22T10:00:00Z")))
    (should (equal "1 day 1 hour 30 minutes after" (taskls-alert-words '(:offset 1530) "2026-11-22T10:00:00Z")))
    (should (equal "at the due" (taskls-alert-words '(:offset 0) "2026-11-22T10:00:00Z")))
    (should (equal "on the day at 09:00" (taskls-alert-words '(:offset 540) "2026-11-22")))
    (should (equal "the day before at 18:00" (taskls-alert-words '(:offset -360) "2026-11-22")))
    (should (equal "2 days before at 09:00" (taskls-alert-words '(:offset -2340) "2026-11-22")))
    (should (equal "at 2026-11-22 08:30" (taskls-alert-words '(:at "2026-11-22T08:30:00.000Z") nil)))
    (let ((taskls-time-zone "Europe/Berlin"))
      (should (equal "at 2026-11-22 09:30" (taskls-alert-words '(:at "2026-11-22T08:30:00.000Z") nil)))
      ;; The last occurrence's day is the client's: 23:30 UTC is the next day in Berlin.
      (should (equal "3 done, 1 skipped; last done 2026-11-21"
                     (taskls-repeat-history
                      '(:occurrences (:completed 3 :skipped 1
                                      :recent [(:due "2026-11-19" :outcome "skipped" :at "2026-11-19T08:00:00.000Z")
                                               (:due "2026-11-20" :outcome "completed" :at "2026-11-20T23:30:00.000Z")]))))))
    (should (null (taskls-repeat-history '(:occurrences (:completed 0 :skipped 0 :recent [])))))
    (should (equal '(("Repeats" . "every day") ("Alerts" . "on the day at 09:00"))
                   (taskls-repeat-describe '(:repeat (:rule "FREQ=DAILY" :from "due" :text "every day")
                                             :due "2026-11-22" :alerts [(:offset 540)]
                                             :occurrences (:completed 0 :skipped 0 :recent [])))))))

(ert-deftest taskls-reminders-fire-once-snooze-and-dismiss ()
  "Reminders are watched from the start, said once as they fire, snoozed and dismissed."
  (taskls-test-with-server nil
    (let* ((taskls-reminders-fired nil)
           (seed (taskls-test-seed "Home" '(:title "Call\eAnn" :due "2026-11-25T11:00:00Z" :alerts [(:offset -30)])))
           (id (car (cadr seed)))
           (words "taskls: reminder: \"Call\\eAnn\", due today 11:00"))
      (taskls-call "debug/setClock" (list :now "2026-11-25T10:30:30Z"))
      (taskls-repeat-test-said words)
      (should (= 1 (length taskls-reminders-fired)))
      (taskls-call "debug/setClock" (list :now "2026-11-25T10:35:00Z"))
      (should (= 1 (length taskls-reminders-fired)))
      (should (= 1 (cl-count words taskls-test-messages :test #'equal)))
      ;; Snooze, picked from the list by its words.
      (setq taskls-test-answers
            '("\"Call\\eAnn\", due today 11:00 — 30 minutes before, fired 2026-11-25 10:30"))
      (taskls-snooze-reminder)
      (taskls-repeat-test-said "taskls: snoozed \"Call\\eAnn\" for 10 minutes")
      (should (null taskls-test-answers))
      (should (null (taskls-reminders-pending)))
      (taskls-call "debug/setClock" (list :now "2026-11-25T10:45:30Z"))
      (should (= 2 (length taskls-reminders-fired)))
      (should (= 2 (cl-count words taskls-test-messages :test #'equal)))
      ;; The list of pending reminders; d dismisses the one at point.
      (let ((buffer (taskls-reminders)))
        (taskls-test-wait (lambda () (equal '("  \"Call\\eAnn\", due today 11:00 — 30 minutes before, fired 2026-11-25 10:45")
                                            (taskls-test-lines buffer)))
                          "the pending reminder")
        (with-current-buffer buffer
          (goto-char (point-min))
          (taskls-test-keys "d"))
        (taskls-repeat-test-said "taskls: dismissed the reminder of \"Call\\eAnn\"")
        (taskls-test-wait (lambda () (equal '("No reminders pending") (taskls-test-lines buffer)))
                          "the empty list"))
      (should (null (taskls-reminders-pending)))
      (taskls-call "debug/setClock" (list :now "2026-11-25T12:00:00Z"))
      (should (= 2 (length taskls-reminders-fired)))
      ;; An alert that passed unwatched fires late, and says so.
      (taskls-call "items/create" (list :list (car seed) :title "Old" :alerts [(:at "2026-11-25T11:00:00Z")]))
      (taskls-call "debug/setClock" (list :now "2026-11-25T12:01:00Z"))
      (taskls-repeat-test-said "taskls: reminder: \"Old\" (late)")
      (ignore id))))

(ert-deftest taskls-reminders-show-desktop-notifications-with-actions ()
  "With a D-Bus session, a reminder is a desktop notification whose Done, Snooze and Dismiss act."
  (taskls-test-with-server nil
    (let* ((taskls-reminders-fired nil)
           (shown nil)
           (seed (taskls-test-seed "Home"
                                   '(:title "Water" :due "2026-11-25T11:00:00Z" :alerts [(:offset -10)]
                                            :repeat (:rule "FREQ=DAILY" :from "due"))
                                   '(:title "Call" :due "2026-11-25T11:00:00Z" :alerts [(:offset -10)])
                                   '(:title "Post" :due "2026-11-25T11:00:00Z" :alerts [(:offset -10)]))))
      (cl-letf (((symbol-function 'taskls-reminder--desktop-p) (lambda () t))
                ((symbol-function 'notifications-notify) (lambda (&rest params) (push params shown) (length shown))))
        (taskls-call "debug/setClock" (list :now "2026-11-25T10:50:30Z"))
        (taskls-test-wait (lambda () (= 3 (length shown))) "three desktop notifications")
        (let ((water (cl-find "\"Water\", due today 11:00" shown :key (lambda (p) (plist-get p :body)) :test #'equal))
              (call (cl-find "\"Call\", due today 11:00" shown :key (lambda (p) (plist-get p :body)) :test #'equal))
              (post (cl-find "\"Post\", due today 11:00" shown :key (lambda (p) (plist-get p :body)) :test #'equal)))
          (should (and water call post))
          (should (equal '("done" "Done" "snooze" "Snooze 10 min" "dismiss" "Dismiss") (plist-get water :actions)))
          (should (eq 'normal (plist-get water :urgency)))
          ;; Done on a repeating task moves it on and dismisses the reminder.
          (funcall (plist-get water :on-action) 1 "done")
          (taskls-repeat-test-said "taskls: \"Water\" repeats (every day): next due tomorrow 11:00")
          (funcall (plist-get call :on-action) 2 "snooze")
          (taskls-repeat-test-said "taskls: snoozed \"Call\" for 10 minutes")
          (funcall (plist-get post :on-action) 3 "dismiss")
          (taskls-repeat-test-said "taskls: dismissed the reminder of \"Post\"")
          (taskls-test-wait (lambda () (null (taskls-reminders-pending))) "no reminder pending")
          (taskls-call "debug/setClock" (list :now "2026-11-25T11:01:00Z"))
          (taskls-test-wait (lambda () (= 4 (length shown))) "the snoozed reminder's notification")
          (should (equal "\"Call\", due today 11:00" (plist-get (car shown) :body)))
          (funcall (plist-get (car shown) :on-action) 4 "done")
          (taskls-repeat-test-said "taskls: done: \"Call\"")
          (should (eq t (plist-get (taskls-repeat-test-item (nth 1 (cadr seed))) :done))))))))

(defun taskls-remind-test-pump (predicate what)
  "Read events (D-Bus messages among them) until PREDICATE; fail saying WHAT after 10 s."
  (let ((deadline (+ (float-time) 10)) value)
    (while (and (not (setq value (funcall predicate))) (< (float-time) deadline))
      (read-event nil nil 0.02))
    (or value (ert-fail (format "timed out waiting for %s" what)))))

(ert-deftest taskls-reminders-reach-a-notification-server-on-d-bus ()
  "On a real D-Bus (a private dbus-daemon; this Emacs serves org.freedesktop.Notifications),
a fired reminder is one Notify call with its words and actions, and ActionInvoked snooze snoozes it."
  (unless (and (featurep 'dbusbind) (executable-find "dbus-daemon") (require 'notifications nil t))
    (ert-skip "needs Emacs built with D-Bus and dbus-daemon"))
  (let* ((daemon (make-process :name "taskls-test-dbus" :buffer (generate-new-buffer " *taskls-test-dbus*")
                               :command '("dbus-daemon" "--session" "--print-address=1" "--nofork")
                               :connection-type 'pipe :noquery t
                               :stderr (get-buffer-create " *taskls-test-dbus stderr*")))
         (output (process-buffer daemon))
         (calls nil))
    (unwind-protect
        (progn
          (taskls-test-wait (lambda () (string-suffix-p "\n" (with-current-buffer output (buffer-string))))
                            "the D-Bus address")
          (let ((taskls-reminder-bus (car (split-string (with-current-buffer output (buffer-string)) "\n"))))
            (dbus-init-bus taskls-reminder-bus)
            (should (eq :primary-owner (dbus-register-service taskls-reminder-bus notifications-service)))
            (dbus-register-method taskls-reminder-bus notifications-service notifications-path
                                  notifications-interface "Notify"
                                  (lambda (&rest args) (push args calls) (list :uint32 (length calls))))
            (should (taskls-reminder--desktop-p))
            (taskls-test-with-server nil
              (let ((taskls-reminders-fired nil))
                (taskls-test-seed "Home" '(:title "Call Ann" :due "2026-11-25T11:00:00Z" :alerts [(:offset -30)]))
                (taskls-call "debug/setClock" (list :now "2026-11-25T10:30:30Z"))
                (taskls-remind-test-pump (lambda () calls) "the Notify call")
                (should (= 1 (length calls)))
                ;; Notify (app, replaces, icon, summary, body, actions, hints, timeout).
                (should (equal "taskls reminder" (nth 3 (car calls))))
                (should (equal "\"Call Ann\", due today 11:00" (nth 4 (car calls))))
                (should (equal '("done" "Done" "snooze" "Snooze 10 min" "dismiss" "Dismiss") (nth 5 (car calls))))
                (dbus-send-signal taskls-reminder-bus nil notifications-path notifications-interface
                                  "ActionInvoked" :uint32 1 "snooze")
                (taskls-remind-test-pump (lambda () (member "taskls: snoozed \"Call Ann\" for 10 minutes"
                                                            taskls-test-messages))
                                         "the snooze")
                (taskls-call "debug/setClock" (list :now "2026-11-25T10:41:00Z"))
                (taskls-remind-test-pump (lambda () (= 2 (length calls))) "the second Notify call")
                (should (= 2 (length taskls-reminders-fired)))))))
      (delete-process daemon)
      (kill-buffer output)
      (kill-buffer " *taskls-test-dbus stderr*"))))

(ert-deftest taskls-reminders-are-not-asked-for-when-off ()
  "With `taskls-reminders' nil the server is not asked, and fires nothing."
  (let ((taskls-reminders nil))
    (taskls-test-with-server nil
      (let ((taskls-reminders-fired nil))
        (taskls-test-seed "Home" '(:title "Call" :due "2026-11-25T11:00:00Z" :alerts [(:offset -30)]))
        (taskls-call "debug/setClock" (list :now "2026-11-25T10:31:00Z"))
        (should (null taskls-reminders-fired))
        (should (= 0 (gethash "reminders/watch" taskls--stats 0)))))))

;;; Smart lists

(ert-deftest taskls-smart-joins-a-smart-lists-filter-with-a-buffers ()
  "Saving from a smart list's buffer joins both filters; a member both set differently cannot be."
  (should (equal '(:tagsAllOf ["a"] :text "milk") (taskls-smart--join '(:tagsAllOf ["a"]) '(:text "milk"))))
  (should (equal '(:done "notDone") (taskls-smart--join '(:done "notDone") '(:done "notDone"))))
  (should (eq :text (taskls-smart--join '(:text "milk") '(:text "bread")))))

(defun taskls-smart-test-has-line (buffer regexp)
  "Wait until a line of BUFFER matches REGEXP."
  (taskls-test-wait (lambda () (cl-some (lambda (line) (string-match-p regexp line)) (taskls-test-lines buffer)))
                    (format "a line matching %s" regexp)))

(ert-deftest taskls-smart-lists-save-open-rename-and-delete ()
  "F saves a buffer's filter; the overview shows it live between groups and lists; e, k; the buffer closes."
  (taskls-test-with-server nil
    (let* ((seed (taskls-test-seed "Home" '(:title "Sweep" :tags ["home"]) '(:title "Swept" :tags ["home"] :done t)
                                   "Other"))
           (list (car seed))
           (buffer (taskls-test-open (list :list list :name "Home")))
           (overview (taskls)))
      (taskls-smart-test-has-line overview "\\`  None — in a list buffer, / filters and F saves the filter as one\\'")
      (with-current-buffer buffer
        (setq taskls-test-answers '("#home"))
        (taskls-test-after-change buffer (taskls-test-keys "/"))
        (setq taskls-test-answers '("Home\estuff"))
        (taskls-test-keys "F"))
      (taskls-repeat-test-said
       "taskls: saved the smart list \"Home\\estuff\" (1 task): open it from the overview (M-x taskls)")
      (let ((smart (car (taskls-smart-lists))))
        (should (equal ["home"] (plist-get (plist-get smart :filter) :tagsAllOf)))
        (should (equal "notDone" (plist-get (plist-get smart :filter) :done)))
        (should (equal (vector list) (plist-get smart :lists))))
      ;; The overview: groups, then smart lists, then lists; the count is live.
      (taskls-smart-test-has-line overview "\\`  Home\\\\estuff  1\\'")
      (let ((lines (taskls-test-lines overview)))
        (should (< (cl-position "Smart groups" lines :test #'equal)
                   (cl-position "Smart lists" lines :test #'equal)
                   (cl-position "  Home\\estuff  1" lines :test #'equal)
                   (cl-position "Lists" lines :test #'equal))))
      (taskls-call "items/create" (list :list list :title "Dust" :tags ["home"]))
      (taskls-smart-test-has-line overview "\\`  Home\\\\estuff  2\\'")
      ;; RET opens it: rows across lists, each saying its list.
      (with-current-buffer overview
        (goto-char (point-min))
        (search-forward "estuff")
        (taskls-test-keys "RET"))
      (let ((smart-buffer (get-buffer "*taskls: Home\\estuff*")))
        (should smart-buffer)
        (taskls-test-wait (lambda () (buffer-local-value 'taskls-view--version smart-buffer)) "the smart list")
        (should (equal '("  [ ] Sweep  (Home)  #home" "  [ ] Dust  (Home)  #home") (taskls-test-lines smart-buffer)))
        ;; F in a smart list's buffer: its filter and the buffer's, over its lists.
        (with-current-buffer smart-buffer
          (setq taskls-test-answers '("sweep"))
          (taskls-test-after-change smart-buffer (taskls-test-keys "/"))
          (should (equal '("  [ ] Sweep  (Home)  #home") (taskls-test-lines smart-buffer)))
          (setq taskls-test-answers '("Sweeping"))
          (taskls-test-keys "F"))
        (taskls-test-wait (lambda () (= 2 (length (taskls-smart-lists)))) "the second smart list")
        (let ((sweeping (nth 1 (taskls-smart-lists))))
          (should (equal "Sweeping" (plist-get sweeping :name)))
          (should (equal ["home"] (plist-get (plist-get sweeping :filter) :tagsAllOf)))
          (should (equal "sweep" (plist-get (plist-get sweeping :filter) :text)))
          (should (equal (vector list) (plist-get sweeping :lists)))
          (should (= 1 (plist-get sweeping :count))))
        ;; e renames it.
        (with-current-buffer overview
          (goto-char (point-min))
          (search-forward "estuff")
          (setq taskls-test-answers '("Chores"))
          (taskls-test-keys "e"))
        (taskls-smart-test-has-line overview "\\`  Chores  2\\'")
        ;; k deletes it, after asking; the buffer on it says so.
        (with-current-buffer overview
          (goto-char (point-min))
          (search-forward "Chores")
          (setq taskls-test-answers '(t))
          (taskls-test-keys "k"))
        (taskls-test-wait (lambda () (equal '("This smart list was deleted — press q to close")
                                            (taskls-test-lines smart-buffer)))
                          "the closed view")
        (taskls-repeat-test-said "taskls: the smart list Chores was deleted")
        (taskls-test-wait (lambda () (not (cl-some (lambda (line) (string-prefix-p "  Chores" line))
                                                   (taskls-test-lines overview))))
                          "the overview without it"))
      ;; From a smart group: every list (lists null); the Completed group saves done tasks.
      (let ((all (taskls-test-open (list :group "all" :name "All"))))
        (with-current-buffer all
          (setq taskls-test-answers '("#home"))
          (taskls-test-after-change all (taskls-test-keys "/"))
          (setq taskls-test-answers '("Everywhere"))
          (taskls-test-keys "F")))
      (let ((completed (taskls-test-open (list :group "completed" :name "Completed"))))
        (with-current-buffer completed
          (setq taskls-test-answers '("#home"))
          (taskls-test-after-change completed (taskls-test-keys "/"))
          (setq taskls-test-answers '("Done at home"))
          (taskls-test-keys "F")))
      (taskls-test-wait (lambda () (= 3 (length (taskls-smart-lists)))) "three smart lists")
      (let ((everywhere (nth 1 (taskls-smart-lists)))
            (done (nth 2 (taskls-smart-lists))))
        (should (null (plist-get everywhere :lists)))
        (should (equal "notDone" (plist-get (plist-get everywhere :filter) :done)))
        (should (= 2 (plist-get everywhere :count)))
        (should (equal "done" (plist-get (plist-get done :filter) :done)))
        (should (= 1 (plist-get done :count)))))))

(provide 'taskls-repeat-tests)
;;; taskls-repeat-tests.el ends here
