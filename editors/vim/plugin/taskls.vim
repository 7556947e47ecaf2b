" taskls: task lists in Vim panes, kept live by the taskls server. The guard, the commands and the
" <Plug> maps; everything else is vim9script in autoload/taskls/, loaded on first use.
if exists('g:loaded_taskls')
  finish
endif
if v:version < 900 || !has('vim9script') || !has('channel') || !has('textprop') || !has('popupwin')
  echohl WarningMsg
  echomsg 'taskls: needs Vim 9.0 or later with +channel, +textprop and +popupwin (this is Vim '
        \ .. v:version / 100 .. '.' .. v:version % 100 .. '); the plugin is not loaded'
  echohl None
  finish
endif
let g:loaded_taskls = 1

import autoload 'taskls/main.vim'
import autoload 'taskls/actions.vim'
import autoload 'taskls/fields.vim'
import autoload 'taskls/view.vim'
import autoload 'taskls/details.vim'
import autoload 'taskls/overview.vim'
import autoload 'taskls/health.vim'
import autoload 'taskls/repeating.vim'
import autoload 'taskls/reminders.vim'
import autoload 'taskls/smartlists.vim'
import autoload 'taskls/client.vim'

command! -nargs=? -bang -complete=customlist,taskls#main#Complete Tasks call main.Command(<q-args>, <bang>0)
command! -bar TasksUndo call actions.Undo()
command! -bar TasksRedo call actions.Redo()
command! -bar TasksRestart call main.Restart()
command! -bar TasksStop call main.Stop()
command! -bar -bang TasksSync call overview.Sync(<bang>0)
command! -bar TasksHealth call health.Show()
command! -bar TasksReminders call reminders.List()
command! -bar -nargs=? TasksSnooze call reminders.SnoozePicked(<q-args>)
command! -bar TasksDismiss call reminders.DismissPicked()
command! -nargs=? TasksSaveFilter call smartlists.SaveCurrent(<q-args>)

" With g:taskls_reminders = 2 the server starts with Vim, so reminders fire before any :Tasks.
augroup taskls_start
  autocmd!
  autocmd VimEnter * if get(g:, 'taskls_reminders', 1) == 2 | call client.Ensure() | endif
augroup END

" List panes.
nnoremap <silent> <Plug>(taskls-details) <ScriptCmd>call details.Details()<CR>
nnoremap <silent> <Plug>(taskls-add) <ScriptCmd>call actions.Add('end')<CR>
nnoremap <silent> <Plug>(taskls-add-below) <ScriptCmd>call actions.Add('below')<CR>
nnoremap <silent> <Plug>(taskls-add-above) <ScriptCmd>call actions.Add('above')<CR>
nnoremap <silent> <Plug>(taskls-add-subtask) <ScriptCmd>call actions.Add('subtask')<CR>
nnoremap <silent> <Plug>(taskls-toggle) <ScriptCmd>call actions.Toggle(0, v:count1)<CR>
xnoremap <silent> <Plug>(taskls-toggle) <Esc><ScriptCmd>call actions.Toggle(1)<CR>
nnoremap <silent> <Plug>(taskls-delete) <ScriptCmd>call actions.Delete(0, v:count1)<CR>
xnoremap <silent> <Plug>(taskls-delete) <Esc><ScriptCmd>call actions.Delete(1)<CR>
nnoremap <silent> <Plug>(taskls-edit) <ScriptCmd>call actions.Edit()<CR>
nnoremap <silent> <Plug>(taskls-form) <ScriptCmd>call fields.Form()<CR>
nnoremap <silent> <Plug>(taskls-set-due) <ScriptCmd>call fields.SetDue(0, v:count1)<CR>
xnoremap <silent> <Plug>(taskls-set-due) <Esc><ScriptCmd>call fields.SetDue(1)<CR>
nnoremap <silent> <Plug>(taskls-set-priority) <ScriptCmd>call fields.SetPriority(0, v:count1)<CR>
xnoremap <silent> <Plug>(taskls-set-priority) <Esc><ScriptCmd>call fields.SetPriority(1)<CR>
nnoremap <silent> <Plug>(taskls-set-tags) <ScriptCmd>call fields.SetTags(0, v:count1)<CR>
xnoremap <silent> <Plug>(taskls-set-tags) <Esc><ScriptCmd>call fields.SetTags(1)<CR>
nnoremap <silent> <Plug>(taskls-set-repeat) <ScriptCmd>call repeating.SetRepeat(0, v:count1)<CR>
xnoremap <silent> <Plug>(taskls-set-repeat) <Esc><ScriptCmd>call repeating.SetRepeat(1)<CR>
nnoremap <silent> <Plug>(taskls-skip) <ScriptCmd>call repeating.Skip(0, v:count1)<CR>
xnoremap <silent> <Plug>(taskls-skip) <Esc><ScriptCmd>call repeating.Skip(1)<CR>
nnoremap <silent> <Plug>(taskls-save-filter) <ScriptCmd>call smartlists.SaveCurrent()<CR>
nnoremap <silent> <Plug>(taskls-move-down) <ScriptCmd>call actions.Move(v:count1)<CR>
nnoremap <silent> <Plug>(taskls-move-up) <ScriptCmd>call actions.Move(-v:count1)<CR>
xnoremap <silent> <Plug>(taskls-move-down) <Esc><ScriptCmd>call actions.Move(v:count1, 1)<CR>
xnoremap <silent> <Plug>(taskls-move-up) <Esc><ScriptCmd>call actions.Move(-v:count1, 1)<CR>
nnoremap <silent> <Plug>(taskls-indent) <ScriptCmd>call actions.Indent(0, 0, v:count1)<CR>
nnoremap <silent> <Plug>(taskls-outdent) <ScriptCmd>call actions.Indent(1, 0, v:count1)<CR>
xnoremap <silent> <Plug>(taskls-indent) <Esc><ScriptCmd>call actions.Indent(0, 1)<CR>
xnoremap <silent> <Plug>(taskls-outdent) <Esc><ScriptCmd>call actions.Indent(1, 1)<CR>
nnoremap <silent> <Plug>(taskls-fold-toggle) <ScriptCmd>call actions.Fold('toggle', 0, v:count1)<CR>
nnoremap <silent> <Plug>(taskls-fold-open) <ScriptCmd>call actions.Fold('open', 0, v:count1)<CR>
nnoremap <silent> <Plug>(taskls-fold-close) <ScriptCmd>call actions.Fold('close', 0, v:count1)<CR>
xnoremap <silent> <Plug>(taskls-fold-toggle) <Esc><ScriptCmd>call actions.Fold('toggle', 1)<CR>
xnoremap <silent> <Plug>(taskls-fold-open) <Esc><ScriptCmd>call actions.Fold('open', 1)<CR>
xnoremap <silent> <Plug>(taskls-fold-close) <Esc><ScriptCmd>call actions.Fold('close', 1)<CR>
nnoremap <silent> <Plug>(taskls-fold-open-all) <ScriptCmd>call actions.FoldAll(0)<CR>
nnoremap <silent> <Plug>(taskls-fold-close-all) <ScriptCmd>call actions.FoldAll(1)<CR>
nnoremap <silent> <Plug>(taskls-sort) <ScriptCmd>call view.Sort()<CR>
nnoremap <silent> <Plug>(taskls-filter) <ScriptCmd>call view.Filter()<CR>
nnoremap <silent> <Plug>(taskls-group) <ScriptCmd>call view.Group()<CR>
nnoremap <silent> <Plug>(taskls-undo) <ScriptCmd>call actions.Undo()<CR>
nnoremap <silent> <Plug>(taskls-redo) <ScriptCmd>call actions.Redo()<CR>
nnoremap <silent> <Plug>(taskls-retry) <ScriptCmd>call actions.Retry()<CR>
nnoremap <silent> <Plug>(taskls-refresh) <ScriptCmd>call actions.Refresh()<CR>
nnoremap <silent> <Plug>(taskls-overview) <ScriptCmd>call main.Command('', 0)<CR>
nnoremap <silent> <Plug>(taskls-close) <ScriptCmd>call actions.Close()<CR>
nnoremap <silent> <Plug>(taskls-help) <ScriptCmd>call actions.Help()<CR>

" The overview.
nnoremap <silent> <Plug>(taskls-open) <ScriptCmd>call overview.OpenEntry()<CR>
nnoremap <silent> <Plug>(taskls-list-add) <ScriptCmd>call overview.AddList()<CR>
nnoremap <silent> <Plug>(taskls-list-rename) <ScriptCmd>call overview.RenameList()<CR>
nnoremap <silent> <Plug>(taskls-list-delete) <ScriptCmd>call overview.DeleteList()<CR>
nnoremap <silent> <Plug>(taskls-list-retry) <ScriptCmd>call overview.Retry()<CR>
nnoremap <silent> <Plug>(taskls-list-refresh) <ScriptCmd>call overview.Refresh()<CR>
nnoremap <silent> <Plug>(taskls-sync) <ScriptCmd>call overview.Sync()<CR>
