vim9script
# The test runner: sources the plugin from this checkout and every tests/test_*.vim, then runs
# each global function Test_* (in name order, those containing $TASKLS_TEST_FILTER) with a fresh
# store and a fresh plugin state; collects v:errors; writes one line per test and the closing
# line `vim: N passed, N failed` to $TASKLS_TEST_TMP/results.txt; exits with cquit on failure.

const here = expand('<sfile>:p:h')
execute 'set runtimepath^=' .. fnameescape(fnamemodify(here, ':h'))
set nomore noshowmode shortmess+=F noswapfile ttimeout ttimeoutlen=20 timeoutlen=200
runtime plugin/taskls.vim

import './helpers.vim' as h

const results = $TASKLS_TEST_TMP .. '/results.txt'
writefile([], results)

def Say(line: string)
  writefile([line], results, 'a')
enddef

for file in sort(glob(here .. '/test_*.vim', false, true))
  execute 'source' fnameescape(file)
endfor

var passed = 0
var failed = 0
var filter = $TASKLS_TEST_FILTER
for name in sort(getcompletion('Test_', 'function'))
  var fn = substitute(name, '(.*$', '', '')
  if filter != '' && stridx(fn, filter) < 0
    continue
  endif
  v:errors = []
  var started = reltime()
  try
    h.BeforeEach()
    call('g:' .. fn, [])
  catch
    add(v:errors, 'exception: ' .. v:exception .. ' at ' .. v:throwpoint)
  endtry
  try
    h.AfterEach()
  catch
    add(v:errors, 'after: ' .. v:exception .. ' at ' .. v:throwpoint)
  endtry
  var ms = float2nr(reltimefloat(reltime(started)) * 1000)
  if empty(v:errors)
    passed += 1
    Say(printf('ok   %s (%d ms)', fn, ms))
  else
    failed += 1
    Say(printf('FAIL %s (%d ms)', fn, ms))
    for e in v:errors
      Say('     ' .. e)
    endfor
  endif
endfor
Say(printf('vim: %d passed, %d failed', passed, failed))
if failed > 0 || passed == 0
  cquit 1
endif
qall!
