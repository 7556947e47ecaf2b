#!/usr/bin/env python3
"""The list pane's page in a real headless Chromium, against a real taskls.

Each test starts the relay (relay.js: the real host code on a real taskls process) on a fresh store,
opens the pane's real page in Chromium (selenium), and drives it with real key presses and scrolling.
Screenshots of every state, light and dark, go to the artifact directory.

    python3 run.py --bin path/to/taskls [--artifacts DIR] [--filter TEXT]

Ends with `vscode-webview: N passed, N failed`; exit code 1 when any failed (or none ran).

Robust under load by construction (CI runs it beside a full `swift test`): no WebElement is held across
a re-render (rows are found by their data-id, every control afresh, at the moment of use, and found
again when the page replaced it meanwhile: `act`); keys go to the element that has the focus, after
waiting until it has it; every assertion waits for the state its action leads to (the row, the depth,
the page having the server's reply) — bounded waits on conditions, never a sleep of a fixed time.
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
import traceback
import urllib.request

from selenium.common.exceptions import StaleElementReferenceException, TimeoutException
from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select, WebDriverWait

HERE = os.path.dirname(os.path.abspath(__file__))
ROW = 22

parser = argparse.ArgumentParser()
parser.add_argument('--bin', default=os.environ.get('TASKLS_BIN'))
parser.add_argument('--artifacts', default=os.environ.get('TASKLS_ARTIFACTS'))
parser.add_argument('--filter', default=os.environ.get('TASKLS_TEST_FILTER', ''))
parser.add_argument('--readme', action='store_true', help="copy the dark pane's screenshot to media/screenshot.png (the README's)")
parser.add_argument('--chromium', default=os.environ.get('CHROMIUM', '/usr/bin/chromium'))
parser.add_argument('--chromedriver', default=os.environ.get('CHROMEDRIVER', '/usr/bin/chromedriver'))
parser.add_argument('--timeout', type=float, default=float(os.environ.get('TASKLS_WAIT_SECONDS', '30')),
                    help='seconds any one wait may take before the test fails (default 30; a passing wait ends as soon as its condition holds)')
parser.add_argument('--reply-delay', type=int, default=int(os.environ.get('TASKLS_RELAY_REPLY_DELAY_MS', '0')),
                    help="ms the relay holds back each host answer to the page, the order kept (a slow host, as under load: "
                         "a change pushed before its answer reaches the page first); default 0")
options = parser.parse_args()
if not options.bin:
    sys.exit('usage: run.py --bin path/to/taskls')
options.bin = os.path.abspath(options.bin)
TMP = tempfile.mkdtemp(prefix='taskls-webview-')
ARTIFACTS = options.artifacts or os.path.join(TMP, 'artifacts')
os.makedirs(ARTIFACTS, exist_ok=True)
ENV = dict(os.environ, TASKLS_BIN=options.bin, TASKLS_TEST_TMP=TMP, TASKLS_RELAY_REPLY_DELAY_MS=str(options.reply_delay))
serial = [0]


def new_store():
    serial[0] += 1
    return os.path.join(TMP, 'stores', 'store-%d' % serial[0])


big_fixtures = {}


def big_store(n=100000):
    """A store with one list "Big" of n items "Task 1".."Task n" (made once, copied per test)."""
    shared = os.environ.get('TASKLS_TEST_BIG_STORE', '')
    if n not in big_fixtures and n == 100000 and shared and os.path.isdir(shared):
        # `swift test` makes the 100,000-item store once for every editor suite (list l1): a copy will do.
        big_fixtures[n] = (shared, 'l1')
    if n not in big_fixtures:
        store = new_store()
        out = subprocess.run(['node', os.path.join(HERE, 'fixture.js'), 'big', str(n), store], env=ENV,
                             check=True, capture_output=True, text=True, timeout=300)
        big_fixtures[n] = (store, out.stdout.strip())
    store, list_id = big_fixtures[n]
    copy = new_store()
    shutil.copytree(store, copy)
    return copy, list_id


def wait(condition, what, timeout=None):
    """Polls `condition()` until it returns a true value, which it returns; an exception counts as "not
    yet" (the page may be between states). Fails naming `what` and the last value after `timeout`
    seconds (--timeout). A bounded wait on a condition (WebDriverWait), never a sleep of a fixed time."""
    last = [None]

    def check(_):
        try:
            last[0] = condition()
        except Exception as error:
            last[0] = error
            return False
        return last[0]
    try:
        return WebDriverWait(None, timeout or options.timeout, poll_frequency=0.02).until(check)
    except TimeoutException:
        raise AssertionError('timed out waiting for %s (last: %r)' % (what, last[0])) from None


def act(driver, what, find, do, timeout=None):
    """Finds an element with `find()` at the moment of use and returns `do(element)`. When the page
    rendered that element anew between the two (a change pushed meanwhile: StaleElementReferenceException),
    it is found and acted on again, until `timeout`; `find()` returning None (or NoSuchElement) counts as
    "not there yet". A stale element fails the command before its click or its typing happened, so a
    retry never acts twice; a chain cut short releases what it pressed (a modifier) before the retry."""
    def attempt(_):
        element = find()
        if element is None:
            return False
        try:
            return (do(element),)
        except StaleElementReferenceException:
            ActionChains(driver).reset_actions()
            raise
    try:
        return WebDriverWait(driver, timeout or options.timeout, poll_frequency=0.02,
                             ignored_exceptions=(StaleElementReferenceException,)).until(attempt)[0]
    except TimeoutException:
        raise AssertionError('timed out trying to %s (the element was not there, or kept going stale)' % what) from None


def eq(expected, actual, what='value'):
    if expected != actual:
        raise AssertionError('%s: expected %r, got %r' % (what, expected, actual))


def truthy(value, what):
    if not value:
        raise AssertionError('%s is false' % what)


class Relay:
    """relay.js on a store; `control(op, ...)` and `request(method, params)` talk to it."""

    def __init__(self, store, serve_args=(), time_zone=None):
        args = ['node', os.path.join(HERE, 'relay.js'), '--bin', options.bin, '--store', store]
        if time_zone:
            args += ['--time-zone', time_zone]
        for arg in serve_args:
            args += ['--serve-arg', arg]
        self.process = subprocess.Popen(args, stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=ENV, text=True)
        self.port = json.loads(self.process.stdout.readline())['port']
        self.origin = 'http://127.0.0.1:%d' % self.port

    def control(self, op, **members):
        members['op'] = op
        request = urllib.request.Request(self.origin + '/control', data=json.dumps(members).encode(), method='POST')
        with urllib.request.urlopen(request, timeout=30) as response:
            answer = json.loads(response.read())
        if not answer['ok']:
            raise AssertionError('%s failed: %s' % (op, answer['error']))
        return answer['result']

    def request(self, method, params=None):
        return self.control('request', method=method, params=params)

    def seed(self, name, titles):
        list_id = self.request('lists/create', {'name': name})['list']['id']
        for title in titles:
            self.request('items/create', {'list': list_id, 'title': title})
        return list_id

    def close(self):
        try:
            self.process.stdin.close()
            self.process.wait(timeout=10)
        except Exception:
            self.process.kill()


def browser(width=900, height=640):
    chrome = webdriver.ChromeOptions()
    chrome.binary_location = options.chromium
    for flag in ('--headless=new', '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage',
                 '--window-size=%d,%d' % (width, height), '--force-device-scale-factor=1', '--lang=en-US'):
        chrome.add_argument(flag)
    driver = webdriver.Chrome(service=Service(options.chromedriver), options=chrome)
    driver.set_script_timeout(options.timeout)
    return driver


class Pane:
    """One pane page in one browser. It holds no WebElement: each is found when it is used."""

    def __init__(self, driver, relay, source, theme='dark', name=None, key=None, max_height=None):
        self.driver = driver
        self.relay = relay
        query = '&'.join('%s=%s' % item for item in source.items())
        driver.get('%s/pane?%s&theme=%s&name=%s%s%s' % (relay.origin, query, theme, name or 'Tasks', '&key=' + key if key else '',
                                                        '&maxHeight=%d' % max_height if max_height else ''))

    @classmethod
    def attach(cls, driver, relay):
        """The pane already loaded in `driver` (after a reload)."""
        pane = cls.__new__(cls)
        pane.driver, pane.relay = driver, relay
        return pane

    def js(self, script, *args):
        return self.driver.execute_script(script, *args)

    def element(self, css):
        """The element matching `css` now (raises NoSuchElementException when there is none)."""
        return self.driver.find_element(By.CSS_SELECTOR, css)

    @property
    def scroller(self):
        return self.element('.scroller')

    def click(self, css, what=None):
        """A click on the element matching `css`, found afresh (again if it went stale)."""
        act(self.driver, 'click %s' % (what or css), lambda: self.element(css), lambda node: node.click())

    def type(self, css, *keys, what=None):
        """Keys typed into the element matching `css` (which takes the focus), found afresh."""
        act(self.driver, 'type into %s' % (what or css), lambda: self.element(css), lambda node: node.send_keys(*keys))

    def choose(self, css, value=None, text=None):
        """An option of the <select> matching `css` chosen, by value or by visible text."""
        def pick(node):
            menu = Select(node)
            if value is not None:
                menu.select_by_value(value)
            else:
                menu.select_by_visible_text(text)
        act(self.driver, 'choose %r in %s' % (value if value is not None else text, css), lambda: self.element(css), pick)

    def value(self, css):
        return self.js('return document.querySelector(arguments[0]).value;', css)

    def row_id(self, title):
        """The id of the task titled `title` in the page's model (ids stay; DOM rows are rebuilt)."""
        return wait(lambda: self.js("const r = window.tasklsPane.model.rows.find(r => r && r.kind === 'item' && r.title === arguments[0]); return r ? r.id : null;", title),
                    'a row titled %r' % title)

    def row_part(self, row_id, part=''):
        """The DOM row of `row_id` (or `part` of it, a CSS selector inside it) as it is now, or None."""
        return self.js("return document.querySelector('.spacer .row[data-id=\"' + CSS.escape(arguments[0]) + '\"] ' + arguments[1]);", row_id, part)

    def scroll_to(self, index):
        """Scrolls the list so row `index` is at its top (as dragging the scrollbar does) and waits until the scroll
        took: set again on each poll, since a scroll set before the list's height follows its count is clamped."""
        top = index * ROW
        def scrolled():
            return self.js("const s = document.querySelector('.scroller'); if (s.scrollTop !== arguments[0]) s.scrollTop = arguments[0];"
                           " return Math.abs(s.scrollTop - arguments[0]) < 1;", top)
        wait(scrolled, 'the list scrolled to row %d' % index)

    def focus_list(self):
        """Gives the list (the scroller) the keyboard focus and waits until it has it."""
        self.js("const s = document.querySelector('.scroller'); if (document.activeElement !== s) s.focus();")
        wait(lambda: self.js("return document.activeElement === document.querySelector('.scroller');"), 'the list to have the keyboard focus')

    def state(self):
        return self.js('''const p = window.tasklsPane, m = p.model;
            return {state: m.state, count: m.count, version: m.version, window: m.window, focused: p.focusedId,
                    selection: [...p.selection], stats: p.stats, sort: m.sort, sections: m.sections, empty: m.empty || null};''')

    def ready(self, count=None, timeout=None):
        """Waits until the view is ready (with `count` rows) and returns the page's state; fails at once
        when the page says it cannot be (an error, the server stopped). Opening may load a whole
        100,000-item store, the slowest wait of the suite: twice --timeout unless told."""
        def opened():
            state = self.state()
            if state['state'] == 'ready' and (count is None or state['count'] == count):
                return state
            text = self.state_text() or ''
            return {'failed': text} if text.startswith(('Error: ', 'The server stopped')) else None
        state = wait(opened, 'the pane ready' + ('' if count is None else ' with %d rows' % count), timeout or 2 * options.timeout)
        if 'failed' in state:
            raise AssertionError('the pane did not open: %s' % state['failed'])
        return state

    def rows(self):
        """The rows in the DOM, top to bottom: [index, id, text, classes]."""
        return self.js('''return [...document.querySelectorAll('.spacer .row')]
            .map(n => [Number(n.dataset.index), n.dataset.id || null, n.textContent, n.className, n.getAttribute('aria-selected'),
                       n.getAttribute('aria-setsize'), n.getAttribute('aria-posinset'), n.getBoundingClientRect().top])
            .sort((a, b) => a[0] - b[0]);''')

    def titles(self):
        return [r[2] for r in self.rows() if 'placeholder' not in r[3]]

    def visible_titles(self):
        return self.js('''const s = document.querySelector('.scroller').getBoundingClientRect();
            return [...document.querySelectorAll('.spacer .row')].filter(n => { const r = n.getBoundingClientRect(); return r.bottom > s.top + 1 && r.top < s.bottom - 1; })
              .sort((a, b) => a.getBoundingClientRect().top - b.getBoundingClientRect().top)
              .map(n => n.classList.contains('placeholder') ? '…' : (n.querySelector('.title') || n.querySelector('.header-title')).textContent);''')

    def classes_of(self, title):
        """The classes of the DOM row titled `title`, or None."""
        return self.js('''const t = [...document.querySelectorAll('.spacer .row .title')].find(n => n.textContent === arguments[0]);
            return t ? t.closest('.row').className : null;''', title)

    def state_text(self):
        return self.js("const s = document.querySelector('.state'); return s.hidden ? null : s.querySelector('.state-text').textContent;")

    def messages(self):
        return self.js("return [...document.querySelectorAll('.messages .message')].map(n => n.textContent);")

    def keys(self, *keys):
        """Real key presses on the list, once it has the keyboard focus."""
        self.focus_list()
        ActionChains(self.driver).send_keys(*keys).perform()

    def shift(self, key, times=1):
        """Shift held down around `key` (selenium's Keys.SHIFT + key does not hold it in Chromium)."""
        self.modified(Keys.SHIFT, *([key] * times))

    def modified(self, modifier, *keys):
        """`keys` pressed on the list with `modifier` (Ctrl, Shift) held down."""
        self.focus_list()
        chain = ActionChains(self.driver).key_down(modifier)
        for key in keys:
            chain = chain.send_keys(key)
        chain.key_up(modifier).perform()

    def settle(self):
        """Waits until the page is quiet: no window check scheduled (the scroll debounce), no window
        request waiting for its rows, and what it has rendered (an animation frame after that)."""
        quiet = 'const p = window.tasklsPane; return !p.windowCheckScheduled && p.pendingWindow === null;'
        for _ in range(2):
            self.driver.execute_async_script('const done = arguments[0]; requestAnimationFrame(() => requestAnimationFrame(() => done()));')
            wait(lambda: self.js(quiet), 'the page to settle')

    def screenshot(self, name):
        path = os.path.join(ARTIFACTS, name + '.png')
        self.driver.save_screenshot(path)
        return path

    def server_rows(self):
        """The view's rows as the server has them now (a fresh snapshot of the same window)."""
        view = self.js('return window.tasklsPane.model.view;')
        window = self.js('return window.tasklsPane.model.window;')
        snapshot = self.relay.request('view/snapshot', {'view': view})
        eq(window, snapshot['window'], 'window')
        return snapshot

    def check_exact(self):
        """The page's model equals the server's view, and the DOM shows exactly those rows (once the
        page has the server's latest version and has rendered it)."""
        def caught_up():
            snapshot = self.server_rows()
            model = self.js('return window.tasklsPane.model.snapshot();')
            return (snapshot, model) if snapshot['version'] == model['version'] else None
        snapshot, model = wait(caught_up, "the page at the server's version")
        self.settle()
        eq(snapshot['version'], model['version'], 'version')
        eq(snapshot['count'], model['count'], 'count')
        eq(snapshot['rows'], model['rows'], 'rows')
        start = snapshot['window']['start']
        for index, row_id, text, classes, *_ in self.rows():
            if 'placeholder' in classes:
                truthy(not (start <= index < start + len(snapshot['rows'])), 'placeholder %d is outside the window' % index)
            else:
                eq(snapshot['rows'][index - start]['id'], row_id, 'the row at %d' % index)
        return snapshot


# Driving the page ------------------------------------------------------------------------------

def focused_title(pane):
    """The title of the row the page has focused (None when it is not among the fetched rows)."""
    return pane.js('const p = window.tasklsPane; const r = p.model.rowAt(p.model.indexOf(p.focusedId)); return r ? r.title : null;')


def click_title(pane, title, part='.title', modifier=None):
    """A real click on `part` of the row titled `title`, then waits until the page focused that row and the
    list has the keyboard focus. The row is found by its data-id at the moment of the click (a change
    pushed meanwhile rebuilds a row's content: the title clicked is found again). Returns its id."""
    row = pane.row_id(title)

    def click(node):
        chain = ActionChains(pane.driver)
        if modifier:
            chain = chain.key_down(modifier)
        chain = chain.click(node)
        if modifier:
            chain = chain.key_up(modifier)
        chain.perform()
    act(pane.driver, 'click the row %r' % title, lambda: pane.row_part(row, part), click)
    wait(lambda: pane.js('return window.tasklsPane.focusedId === arguments[0] && document.activeElement === document.querySelector(".scroller");', row),
         'the focus on %s' % title)
    return row


def ctrl(pane, key):
    pane.modified(Keys.CONTROL, key)


def add_opened(pane, where, about=None):
    """Waits until the add box has the keyboard focus, opened for a task `where` ('end', 'below',
    'subtask'…: the page's startAdd ran), its placeholder naming `about` when given."""
    wait(lambda: pane.js("const a = document.querySelector('input.add');"
                         " return document.activeElement === a && (a.dataset.where || 'end') === arguments[0]"
                         " && (arguments[1] === null || a.placeholder.includes(arguments[1]));", where, about),
         'the add box open for %s%s' % (where, '' if about is None else ' (%s)' % about))


def add_line(pane, text):
    """Types `text` and Enter into the add box (found afresh)."""
    pane.type('input.add', text, Keys.ENTER, what='the add box')


def add_answered(pane):
    """Waits until the page has the host's answer to an add that stored a task: the box emptied and back
    to adding at the end (the page focuses the new task in that same step). The new row's op may reach
    the page before that answer: after waiting for the row alone, a click could lose its focus to it."""
    wait(lambda: pane.js("const a = document.querySelector('input.add'); return a.value === '' && (a.dataset.where || 'end') === 'end';"),
         "the page to have the add's answer")


tests = []


def test(name):
    def register(fn):
        tests.append((name, fn))
        return fn
    return register


# The tests -----------------------------------------------------------------------------------------

# Drags the row at index arguments[0] to the gap above index arguments[1] (HTML drag and drop,
# dispatched as the browser would), in one script: no element is held between its steps.
DRAG = '''const [fromIndex, toIndex] = arguments;
    const scroller = document.querySelector('.scroller');
    const from = document.querySelector(`.row[data-index="${fromIndex}"]`);
    const data = new DataTransfer();
    const box = scroller.getBoundingClientRect();
    from.dispatchEvent(new DragEvent('dragstart', {bubbles: true, cancelable: true, dataTransfer: data}));
    const y = box.top + toIndex * 22 - scroller.scrollTop + 2;
    scroller.dispatchEvent(new DragEvent('dragover', {bubbles: true, cancelable: true, dataTransfer: data, clientX: box.left + 20, clientY: y}));
    scroller.dispatchEvent(new DragEvent('drop', {bubbles: true, cancelable: true, dataTransfer: data, clientX: box.left + 20, clientY: y}));
    from.dispatchEvent(new DragEvent('dragend', {bubbles: true, dataTransfer: data}));'''

@test('a 100,000-item list opens at once: bounded DOM rows, the true scroll height, small windows')
def big_list(ctx):
    store, list_id = big_store()
    relay = ctx.relay(store)
    driver = ctx.browser()
    pane = Pane(driver, relay, {'list': list_id}, name='Big')
    state = pane.ready(100000)
    pane.settle()
    height = pane.js("return document.querySelector('.spacer').getBoundingClientRect().height;")
    eq(100000 * ROW, height, 'the scroll height')
    rows = pane.rows()
    visible = pane.js("return Math.ceil(document.querySelector('.scroller').clientHeight / 22);")
    truthy(len(rows) <= visible + 2 * 4 + 1, 'DOM rows bounded: %d for %d visible' % (len(rows), visible))
    eq('Task 1', pane.visible_titles()[0], 'the first row')
    eq(['100000'], sorted(set(r[5] for r in rows)), 'aria-setsize is the whole count')
    eq([str(r[0] + 1) for r in rows], [r[6] for r in rows], 'aria-posinset')
    eq('listbox', pane.scroller.get_attribute('role'), 'role')
    host = relay.control('host', pane=relay.control('panes')[0]['id'])
    truthy(host['window']['end'] - host['window']['start'] <= 1000, 'the open window is small: %r' % host['window'])
    eq(0, state['stats']['windowRequests'], 'no window request on open')
    pane.screenshot('big-top-dark')
    # Real wheel scrolling: the window follows with small requests.
    for _ in range(6):
        ActionChains(driver).scroll_from_origin(webdriver.common.actions.wheel_input.ScrollOrigin.from_element(pane.scroller), 0, 1200).perform()
    pane.settle()
    truthy(all(t != '…' for t in pane.visible_titles()), 'rows arrived after wheel scrolling: %r' % pane.visible_titles()[:3])
    # Jump to the middle (as dragging the scrollbar does): placeholders, then the rows.
    pane.scroll_to(50000)
    pane.settle()
    wait(lambda: pane.visible_titles()[0] == 'Task 50001', 'the middle rows')
    rows = pane.rows()
    truthy(len(rows) <= visible + 2 * 4 + 1, 'DOM rows bounded in the middle: %d' % len(rows))
    pane.screenshot('big-middle-dark')
    # End: a real key press; the last row focused and shown.
    pane.keys(Keys.END)
    pane.settle()
    wait(lambda: pane.visible_titles()[-1] == 'Task 100000', 'the last row')
    state = pane.state()
    sizes = state['stats']['requestedSizes']
    truthy(all(size <= 1000 for size in sizes), 'every window at most 1,000 rows: %r' % sizes)
    truthy(state['stats']['windowRequests'] <= 12, 'few window requests: %d' % state['stats']['windowRequests'])
    truthy(state['stats']['maxDomRows'] <= visible + 2 * 4 + 2, 'DOM rows never grew: %d' % state['stats']['maxDomRows'])
    fetched = relay.control('host', pane=relay.control('panes')[0]['id'])['stats']['windowRequests']
    eq(state['stats']['windowRequests'], fetched, 'the host sent each window the page asked for')
    last = [r for r in pane.rows() if r[2].endswith('Task 100000')][0]
    eq('true', last[4], 'the last row is selected')
    pane.check_exact()
    # PageUp moves by a page of rows.
    pane.keys(Keys.PAGE_UP)
    pane.settle()
    eq(100000 - visible + 1, pane.state()['focused'] and pane.js('return window.tasklsPane.model.indexOf(window.tasklsPane.focusedId);') + 1, 'a page up')


@test('a list taller than Chromium allows maps rows to the scroll range by a scale factor')
def scaled(ctx):
    store, list_id = big_store()
    relay = ctx.relay(store)
    driver = ctx.browser()
    # 100,000 rows of 22 px are 2.2 M px; with a cap of 1 M px the page must scale, as it does above ~1.5 M rows.
    pane = Pane(driver, relay, {'list': list_id}, name='Big', max_height=1000000)
    pane.ready(100000)
    pane.settle()
    eq(1000000, pane.js("return document.querySelector('.spacer').getBoundingClientRect().height;"), 'the capped height')
    eq('Task 1', pane.visible_titles()[0], 'the top')
    pane.js('window.tasklsPane.scrollToRow(50000);')
    pane.settle()
    wait(lambda: pane.visible_titles()[0] == 'Task 50001', 'row 50000 at the top')
    for _ in range(3):
        ActionChains(driver).scroll_from_origin(webdriver.common.actions.wheel_input.ScrollOrigin.from_element(pane.scroller), 0, 300).perform()
    pane.settle()
    titles = pane.visible_titles()
    numbers = [int(t.split()[1]) for t in titles]
    eq(list(range(numbers[0], numbers[0] + len(numbers))), numbers, 'consecutive rows after wheel scrolling')
    truthy(numbers[0] > 50001, 'the wheel moved down: %r' % numbers[0])
    # The native scrollbar at its end shows the last row.
    pane.js("const s = document.querySelector('.scroller'); s.scrollTop = s.scrollHeight;")
    pane.settle()
    wait(lambda: pane.visible_titles()[-1] == 'Task 100000', 'the last row at the bottom')
    pane.keys(Keys.HOME)
    pane.settle()
    wait(lambda: pane.visible_titles()[0] == 'Task 1', 'Home goes back to the top')
    truthy(len(pane.rows()) <= 40, 'DOM rows bounded: %d' % len(pane.rows()))
    pane.check_exact()


@test('add, toggle, edit, details, delete with undo: real keys, the quick-entry grammar, warnings keep the text')
def editing(ctx):
    relay = ctx.relay(new_store())
    list_id = relay.seed('Inbox', ['Buy milk', 'Call Ann'])
    driver = ctx.browser()
    pane = Pane(driver, relay, {'list': list_id}, name='Inbox')
    pane.ready(2)
    pane.click('.add')
    add_opened(pane, 'end')
    add_line(pane, 'Pay rent ^tomorrow 9:30 !high #home // by transfer')
    wait(lambda: pane.state()['count'] == 3, 'the new task')
    add_answered(pane)
    eq('Pay rent', focused_title(pane), 'the new task focused')
    pane.settle()
    text = pane.rows()[2][2]
    truthy('Pay rent' in text and 'tomorrow 09:30' in text and '!!!' in text and '#home' in text and '≡' in text, 'the new row reads %r' % text)
    eq('', pane.value('.add'), 'the input is cleared')
    # A warning: nothing is created, the text stays with the warning; Enter again stores nothing either.
    add_line(pane, 'Water plants ^fryday')
    wait(lambda: any('fryday is not a date' in m for m in pane.messages()), 'the warning')
    eq('Water plants ^fryday', pane.value('.add'), 'the text kept')
    eq(3, pane.state()['count'], 'nothing created')
    pane.screenshot('warning-dark')
    pane.js("document.querySelector('.messages').replaceChildren();")
    pane.type('.add', Keys.ENTER)
    wait(lambda: any('fryday is not a date' in m for m in pane.messages()), 'the warning again')
    eq('Water plants ^fryday', pane.value('.add'), 'the text kept again')
    eq(3, len(relay.request('lists/open', {'list': list_id, 'window': {'start': 0, 'end': 10}})['rows']), 'still nothing created')
    pane.type('.add', Keys.BACKSPACE * 6, 'friday', Keys.ENTER)
    wait(lambda: pane.state()['count'] == 4, 'the corrected line stored')
    add_answered(pane)
    eq('', pane.value('.add'), 'the input cleared')
    # Toggle with Space on the focused row (Home first).
    pane.keys(Keys.HOME)
    pane.keys(Keys.SPACE)
    wait(lambda: 'done' in pane.rows()[0][3], 'the first row done')
    eq('true', pane.js("return document.querySelector('.row[data-index=\"0\"] .check').getAttribute('aria-checked');"), 'aria-checked')
    pane.keys('x')
    wait(lambda: 'done' not in pane.rows()[0][3], 'undone with x')
    # Click on the checkbox toggles too.
    pane.click('.spacer .row[data-index="1"] .check', 'the second check box')
    wait(lambda: 'done' in pane.rows()[1][3], 'the second row done by a click')
    # Edit the title in place: Enter, type, Enter (the grammar applies: !low sets the priority).
    pane.keys(Keys.HOME)
    pane.keys(Keys.ENTER)
    wait(lambda: pane.js("return document.activeElement === document.querySelector('.row input.inline');"), 'the inline editor')
    eq('Buy milk', pane.value('.row input.inline'), 'the editor starts with the title')
    pane.type('.row input.inline', Keys.END, ' and eggs !low', Keys.ENTER)
    wait(lambda: pane.rows()[0][2].startswith('Buy milk and eggs') and '!' in pane.rows()[0][2], 'the new title')
    wait(lambda: pane.js("return window.tasklsPane.editing === null && document.activeElement === document.querySelector('.scroller');"),
         'the editor closed on the answer, the focus back on the list')
    # The detail form: due, priority, tags, notes.
    pane.keys('e')
    wait(lambda: pane.js("return document.activeElement === document.querySelector('.details input[name=due]');"), 'the detail form')
    pane.screenshot('details-dark')
    pane.type('.details input[name=due]', '2026-12-24')
    pane.choose('.details select[name=priority]', value='medium')
    pane.type('.details input[name=tags]', 'shop food')
    pane.type('.details textarea[name=notes]', 'two of each')
    eq(list_id, pane.value('.details select[name=list]'), 'the list')
    pane.click('.details button[type=submit]')
    wait(lambda: pane.js("return document.querySelector('.details').hidden;"), 'the form closed')
    item = relay.request('items/get', {'id': pane.rows()[0][1]})
    eq(('2026-12-24', 'medium', ['shop', 'food'], 'two of each'), (item['due'], item['priority'], item['tags'], item['notes']), 'the saved fields')
    wait(lambda: '2026-12-24' in pane.rows()[0][2] and '!!' in pane.rows()[0][2], 'the row shows them')
    # Delete with the Delete key, then Undo from the notice.
    pane.keys(Keys.HOME)
    pane.keys(Keys.DELETE)
    wait(lambda: pane.state()['count'] == 3, 'deleted')
    wait(lambda: any('Deleted' in m for m in pane.messages()), 'the undo notice')
    pane.screenshot('deleted-undo-dark')
    pane.click('.messages .link', 'Undo in the notice')
    wait(lambda: pane.state()['count'] == 4, 'back after undo')
    wait(lambda: pane.messages() == ['undid: delete 1 task'], 'the step in words')
    # dd deletes too; u undoes, Ctrl+R redoes, each said in words.
    pane.keys(Keys.HOME)
    pane.keys('d', 'd')
    wait(lambda: pane.state()['count'] == 3, 'deleted with dd')
    pane.keys('u')
    wait(lambda: pane.state()['count'] == 4, 'back with u')
    wait(lambda: pane.messages() == ['undid: delete 1 task'], 'undid in words')
    ctrl(pane, 'r')
    wait(lambda: pane.state()['count'] == 3, 'deleted again with Ctrl+R')
    wait(lambda: pane.messages() == ['redid: delete 1 task'], 'redid in words')
    pane.keys('u')
    wait(lambda: pane.state()['count'] == 4, 'back with u again')
    wait(lambda: pane.messages() == ['undid: delete 1 task'], 'undid in words again')
    pane.screenshot('undid-dark')
    pane.check_exact()

@test('multi-select with Shift and Ctrl, bulk actions; J/K and drag-and-drop reorder; a sorted view says why not')
def selecting_and_reordering(ctx):
    relay = ctx.relay(new_store())
    list_id = relay.seed('Order', ['A', 'B', 'C', 'D', 'E'])
    relay.seed('Elsewhere', [])
    driver = ctx.browser()
    pane = Pane(driver, relay, {'list': list_id}, name='Order')
    pane.ready(5)
    pane.settle()
    pane.keys(Keys.HOME)
    pane.shift(Keys.ARROW_DOWN, 2)
    wait(lambda: len(pane.state()['selection']) == 3, 'three selected')
    wait(lambda: pane.js("const b = document.querySelector('.bulk'); return !b.hidden && b.dataset.count === '3';"), 'the bulk bar for three')
    wait(lambda: [r[4] for r in pane.rows()] == ['true', 'true', 'true', 'false', 'false'], 'aria-selected')
    pane.screenshot('bulk-dark')
    # J moves the block down by one.
    pane.keys('J')
    wait(lambda: pane.titles() == ['D', 'A', 'B', 'C', 'E'] or [t.strip() for t in pane.visible_titles()] == ['D', 'A', 'B', 'C', 'E'], 'the block moved down')
    pane.keys('K')
    wait(lambda: pane.visible_titles() == ['A', 'B', 'C', 'D', 'E'], 'and back up')
    # Bulk: mark the three done.
    act(driver, 'click Done in the bulk bar', lambda: driver.find_element(By.XPATH, "//div[contains(@class,'bulk')]/button[text()='Done']"), lambda node: node.click())
    wait(lambda: [('done' in r[3]) for r in pane.rows()] == [True, True, True, False, False], 'three done')
    # Ctrl+click adds E to a selection of D.
    d = click_title(pane, 'D')
    e = click_title(pane, 'E', modifier=Keys.CONTROL)
    wait(lambda: sorted(pane.state()['selection']) == sorted([d, e]), 'D and E selected')
    # Move them to another list from the bulk bar (built for two once the page rendered them).
    wait(lambda: pane.js("const b = document.querySelector('.bulk'); return !b.hidden && b.dataset.count === '2';"), 'the bulk bar for two')
    pane.choose('.bulk select', text='Elsewhere')
    wait(lambda: pane.visible_titles() == ['A', 'B', 'C'], 'moved to Elsewhere')
    # Drag C above A (HTML drag and drop, dispatched as the browser would).
    pane.keys(Keys.END)
    pane.js(DRAG, 2, 0)
    wait(lambda: pane.visible_titles() == ['C', 'A', 'B'], 'C dragged to the top')
    pane.js(DRAG, 0, 3)
    wait(lambda: pane.visible_titles() == ['A', 'B', 'C'], 'C dragged to the end')
    # Two selected rows dragged together (pressing on a selected row keeps the selection).
    pane.keys(Keys.HOME)
    pane.shift(Keys.ARROW_DOWN)
    b = pane.row_id('B')
    act(driver, 'press on B', lambda: pane.row_part(b, '.title'), lambda node: ActionChains(driver).move_to_element(node).click_and_hold().perform())
    eq(2, len(pane.state()['selection']), 'the selection kept on pressing a selected row')
    pane.js(DRAG, 1, 3)
    ActionChains(driver).release().perform()
    wait(lambda: pane.visible_titles() == ['C', 'A', 'B'], 'A and B dragged below C')
    # Typing into the row being edited survives a change to that row from elsewhere.
    pane.keys(Keys.END, Keys.ENTER)
    wait(lambda: pane.js("return document.activeElement === document.querySelector('.row input.inline');"), 'the editor')
    pane.type('.row input.inline', Keys.END, ' typed')
    relay.request('items/update', {'id': pane.state()['focused'], 'priority': 'high'})
    wait(lambda: pane.state()['version'] and pane.js('return window.tasklsPane.model.rowAt(2).priority') == 'high', 'the update arrived')
    pane.settle()
    eq('B typed', pane.value('.row input.inline'), 'the text being typed')
    pane.type('.row input.inline', Keys.ESCAPE)
    wait(lambda: '!!!' in pane.rows()[2][2], 'the row redrawn after the edit ends')
    # Sorted: J and dragging explain why not.
    pane.choose('select[aria-label=Sort]', text='Title')
    wait(lambda: pane.state()['sort']['by'] == 'title', 'sorted by title')
    pane.keys(Keys.HOME, 'J')
    wait(lambda: any('only in manual order' in m for m in pane.messages()), 'the reason')
    pane.screenshot('sorted-why-not-dark')
    pane.js(DRAG, 2, 0)
    eq(['A', 'B', 'C'], pane.visible_titles(), 'nothing moved in the sorted view')
    pane.check_exact()

@test('sort, filter through the grammar, sections with counted headers, both empty reasons')
def sort_filter_sections(ctx):
    relay = ctx.relay(new_store())
    list_id = relay.seed('Mixed', [])
    for title, priority, tags in [('banana', 'high', ['food']), ('apple', 'none', []), ('cherry', 'low', ['food'])]:
        relay.request('items/create', {'list': list_id, 'title': title, 'priority': priority, 'tags': tags})
    driver = ctx.browser()
    pane = Pane(driver, relay, {'list': list_id}, name='Mixed')
    pane.ready(3)
    pane.settle()
    # Each sort's answer is awaited too (it sets the menu again: a late one would undo the next choice on screen).
    sort = 'select[aria-label=Sort]'
    pane.choose(sort, text='Title')
    wait(lambda: pane.visible_titles() == ['apple', 'banana', 'cherry'], 'by title')
    wait(lambda: pane.state()['sort']['by'] == 'title', "the sort's answer")
    pane.choose(sort, text='Priority (high first)')
    wait(lambda: pane.visible_titles() == ['banana', 'cherry', 'apple'], 'by priority')
    wait(lambda: pane.state()['sort']['by'] == 'priority', "the sort's answer")
    pane.choose(sort, text='Manual order')
    wait(lambda: pane.visible_titles() == ['banana', 'apple', 'cherry'], 'manual again')
    wait(lambda: pane.state()['sort']['by'] == 'manual', "the sort's answer")
    # Filter: the server reads the words (#food !low+).
    pane.keys('/')
    truthy(pane.js("return document.activeElement === document.querySelector('.filter');"), 'slash focuses the filter')
    pane.type('.filter', '#food !high', Keys.ENTER)
    wait(lambda: pane.visible_titles() == ['banana'], 'filtered')
    # A filter with a warning is not applied: the view keeps its filter, the text and the warning stay.
    act(driver, 'clear the filter', lambda: pane.element('.filter'), lambda node: node.clear())
    pane.type('.filter', '#food due<fryday', Keys.ENTER)
    wait(lambda: any('fryday is not a date' in m for m in pane.messages()), 'the warning')
    eq('#food due<fryday', pane.value('.filter'), 'the typed filter kept')
    eq({'tagsAllOf': ['food'], 'priorityAtLeast': 'high'}, pane.js('return window.tasklsPane.model.filter;'), 'the filter as it was')
    eq(['banana'], pane.visible_titles(), 'the rows as they were')
    act(driver, 'clear the filter', lambda: pane.element('.filter'), lambda node: node.clear())
    pane.type('.filter', 'zzz', Keys.ENTER)
    wait(lambda: pane.state_text() == 'No matches — clear the filter', 'no matches')
    pane.screenshot('no-matches-dark')
    pane.click('.state button', 'Clear the filter')
    wait(lambda: pane.visible_titles() == ['banana', 'apple', 'cherry'], 'the filter cleared')
    eq('', pane.value('.filter'), 'the filter input cleared')
    # Sections: headers with their counts.
    pane.choose('select[aria-label=Sections]', value='priority')
    wait(lambda: pane.visible_titles() == ['High', 'banana', 'Low', 'cherry', 'No Priority', 'apple'], 'sections')
    headers = pane.js("return [...document.querySelectorAll('.row.header')].map(n => n.textContent);")
    eq(['High1', 'Low1', 'No Priority1'], headers, 'headers with counts')
    pane.screenshot('sections-dark')
    pane.check_exact()
    # Empty list: "No tasks — add one", its button focuses the add input.
    empty = relay.seed('Empty', [])
    pane2 = Pane(driver, relay, {'list': empty}, name='Empty')
    pane2.ready(0)
    wait(lambda: pane2.state_text() == 'No tasks — add one', 'no tasks')
    pane2.screenshot('no-tasks-dark')
    pane2.click('.state button', 'Add a task')
    add_opened(pane2, 'end')

@test('two panes on one list stay exact as either is edited')
def two_panes(ctx):
    store, list_id = big_store(300)
    relay = ctx.relay(store)
    one = Pane(ctx.browser(), relay, {'list': list_id}, name='One')
    two = Pane(ctx.browser(), relay, {'list': list_id}, name='Two')
    one.ready(300)
    two.ready(300)
    two.scroll_to(150)
    two.settle()
    wait(lambda: two.visible_titles()[0] == 'Task 151', 'pane two in the middle')
    one.click('.add')
    add_opened(one, 'end')
    add_line(one, 'Inserted at the end')
    wait(lambda: two.state()['count'] == 301, 'pane two sees the insertion')
    add_answered(one)  # else its answer could take pane one's focus from the row Home is about to focus
    one.keys(Keys.HOME)
    one.shift(Keys.ARROW_DOWN)
    one.keys(Keys.DELETE)
    wait(lambda: two.state()['count'] == 299, 'pane two sees the deletion')
    wait(lambda: two.visible_titles()[0] == 'Task 151', 'pane two keeps its rows in place')
    two.keys(Keys.HOME)
    wait(lambda: two.state()['focused'] is not None, 'pane two focused on its first row (fetched)')
    two.keys('J')
    wait(lambda: one.visible_titles()[:2] == ['Task 4', 'Task 3'], 'pane one sees the move from pane two')
    two.keys(Keys.SPACE)
    wait(lambda: 'done' in (one.classes_of('Task 3') or ''), 'pane one sees the toggle (Task 3 moved with its focus in pane two)')
    for pane in (one, two):
        pane.settle()
        pane.check_exact()


@test('the focused row keeps its id and its pixel when rows above it change')
def focus_stays(ctx):
    store, list_id = big_store()
    relay = ctx.relay(store)
    pane = Pane(ctx.browser(), relay, {'list': list_id}, name='Big')
    pane.ready(100000)
    pane.scroll_to(30000)
    pane.settle()
    wait(lambda: pane.visible_titles()[0] == 'Task 30001', 'rows near 30000')
    pane.keys(Keys.ARROW_DOWN, Keys.ARROW_DOWN, Keys.ARROW_DOWN)
    focused = pane.state()['focused']
    top = lambda: pane.js('return document.getElementById(arguments[0]).getBoundingClientRect().top;', 'row-' + focused)
    before = top()
    model = pane.js('return window.tasklsPane.model.snapshot();')
    inside_above = model['rows'][5]['id']  # in the window, above the viewport
    relay.request('items/delete', {'ids': [inside_above]})
    relay.request('items/delete', {'ids': [relay.request('view/snapshot', {'view': model['view']})['rows'][0]['id']]})
    first = relay.request('lists/open', {'list': list_id, 'window': {'start': 0, 'end': 1}})
    relay.request('items/delete', {'ids': [first['rows'][0]['id']]})  # far above the window
    relay.request('items/create', {'list': list_id, 'title': 'New first', 'before': relay.request('view/snapshot', {'view': first['view']})['rows'][0]['id']})
    wait(lambda: pane.state()['count'] == 99998, 'the changes')
    pane.settle()
    eq(focused, pane.state()['focused'], 'the focused id')
    eq(before, top(), 'the focused row under the same pixel')
    # The focused row itself deleted: the row now at its index takes the focus.
    index = pane.js('return window.tasklsPane.model.indexOf(arguments[0]);', focused)
    relay.request('items/delete', {'ids': [focused]})
    wait(lambda: pane.state()['focused'] not in (None, focused), 'the focus moved on')
    eq(index, pane.js('return window.tasklsPane.model.indexOf(window.tasklsPane.focusedId);'), 'the same index')
    pane.check_exact()


@test('loading with a progress bar, then the rows; an error with Retry; the server stopping')
def states(ctx):
    store, list_id = big_store()
    relay = ctx.relay(store, ['--hold-load'])
    pane = Pane(ctx.browser(), relay, {'list': list_id}, name='Big')
    wait(lambda: pane.state_text() == 'Loading… 0%', 'loading')
    truthy(pane.js("return !document.querySelector('.progress').hidden;"), 'the progress bar shows')
    pane.screenshot('loading-dark')
    relay.request('debug/continueLoading')
    pane.ready(100000)
    wait(lambda: pane.visible_titles()[0] == 'Task 1', 'the rows after loading')
    truthy(pane.js("return document.querySelector('.progress').hidden;"), 'the progress bar gone')
    # An error: a store that cannot be opened.
    broken = ctx.relay('/dev/null/taskls')
    error = Pane(ctx.browser(), broken, {'group': 'today'}, name='Today')
    wait(lambda: (error.state_text() or '').startswith('Error: '), 'the error')
    truthy('/dev/null/taskls' in error.state_text(), 'the error names the store: %r' % error.state_text())
    wait(lambda: error.js("return document.querySelector('.state button').textContent;") == 'Retry', 'the Retry button')
    error.screenshot('error-dark')
    version = error.state()['version']
    error.click('.state button', 'Retry')
    wait(lambda: error.state()['version'] == version + 2, 'retried: loading, then error again')
    truthy(error.state_text().startswith('Error: '), 'still an error')
    # The server stopping: the pane says so and Restart reopens it.
    relay.control('kill')
    wait(lambda: (pane.state_text() or '').startswith('The server stopped'), 'stopped')
    pane.screenshot('stopped-dark')
    pane.click('.state button', 'Restart')
    wait(lambda: pane.state_text() == 'Loading… 0%', 'a new server, loading (it holds the load too)')
    relay.request('debug/continueLoading')
    pane.ready(100000)
    wait(lambda: pane.visible_titles()[0] == 'Task 1', 'reopened')


@test('a version gap resyncs silently')
def version_gap(ctx):
    relay = ctx.relay(new_store())
    list_id = relay.seed('Gap', ['A', 'B', 'C'])
    pane = Pane(ctx.browser(), relay, {'list': list_id}, name='Gap')
    pane.ready(3)
    pane_id = relay.control('panes')[0]['id']
    snapshots = pane.state()['stats']['snapshots']
    relay.control('gap', pane=pane_id)
    relay.request('items/create', {'list': list_id, 'title': 'D'})
    wait(lambda: pane.visible_titles() == ['A', 'B', 'C', 'D'], 'the resynced rows')
    eq(1, relay.control('host', pane=pane_id)['stats']['resyncs'], 'one resync')
    eq(snapshots + 1, pane.state()['stats']['snapshots'], 'one snapshot to the page')
    eq([], pane.messages(), 'nothing said to the user')
    relay.request('items/create', {'list': list_id, 'title': 'E'})
    wait(lambda: pane.visible_titles() == ['A', 'B', 'C', 'D', 'E'], 'later changes as ops')
    eq(snapshots + 1, pane.state()['stats']['snapshots'], 'no further snapshot')
    pane.check_exact()


@test('incremental: an op rebuilds only the rows it touches; a reload restores scroll and filter from the state')
def incremental(ctx):
    store, list_id = big_store(2000)
    relay = ctx.relay(store)
    pane = Pane(ctx.browser(), relay, {'list': list_id}, name='Big', key='kept')
    pane.ready(2000)
    pane.settle()
    built = pane.state()['stats']['rowsBuilt']
    rows = pane.rows()
    relay.request('items/update', {'id': rows[3][1], 'title': 'Changed'})
    wait(lambda: 'Changed' in pane.visible_titles(), 'the update')
    pane.settle()
    eq(built + 1, pane.state()['stats']['rowsBuilt'], 'one row rebuilt for one update')
    relay.request('items/create', {'list': list_id, 'title': 'Second', 'before': rows[1][1]})
    wait(lambda: pane.visible_titles()[1] == 'Second', 'the insertion')
    pane.settle()
    eq(built + 2, pane.state()['stats']['rowsBuilt'], 'one row built for one insertion (the rest only move)')
    # Reload (as VS Code does when a hidden pane is shown again): scroll and filter come back.
    pane.scroll_to(1000)
    pane.settle()
    pane.type('.filter', 'Task 1', Keys.ENTER)
    wait(lambda: pane.state()['count'] == 1111, 'filtered')
    pane.scroll_to(500)
    pane.settle()
    pane.driver.refresh()
    again = Pane.attach(pane.driver, relay)
    again.ready(1111)
    again.settle()
    eq('Task 1', again.value('.filter'), 'the filter text restored')
    wait(lambda: abs(again.js("return document.querySelector('.scroller').scrollTop;") - 500 * 22) < ROW, 'the scroll restored')


@test('dues on the client wall clock (dueLocal, Pacific/Kiritimati); fixed columns line up; titles cut with …; names escaped')
def due_local_and_columns(ctx):
    # 12:00 UTC on the 26th is 02:00 on the 27th in Kiritimati (UTC+14): the overview's today is the 27th.
    relay = ctx.relay(new_store(), ['--clock', '2026-11-26T12:00:00Z'], time_zone='Pacific/Kiritimati')
    eq('2026-11-27', relay.request('lists/list', {})['today'], 'the server today')
    inbox = relay.seed('Inbox', [])
    relay.request('lists/create', {'name': 'Evil\u001b[31mList'})
    long_title = 'A very long title that goes on and on ' * 6
    for title, extra in [
        ('Call', {'due': '2026-11-27T17:00:00Z'}),
        ('Widest', {'due': '2026-11-14T09:30:00+14:00', 'priority': 'high', 'tags': ['home']}),
        (long_title, {'notes': 'n', 'priority': 'medium', 'tags': ['x'], 'due': '2026-11-28'}),
        ('Plain', {'tags': ['y']}),
        ('Bell\u0007 title', {'priority': 'low'}),
    ]:
        relay.request('items/create', dict({'list': inbox, 'title': title}, **extra))
    driver = ctx.browser(900, 400)
    pane = Pane(driver, relay, {'list': inbox}, name='Inbox')
    pane.ready(5)
    pane.settle()
    cells = pane.js('''return [...document.querySelectorAll('.spacer .row')].sort((a, b) => a.dataset.index - b.dataset.index).map(n => {
        const box = (s) => { const e = n.querySelector(s); if (!e) return null; const r = e.getBoundingClientRect();
          return {left: r.left, right: r.right, text: e.textContent, scroll: e.scrollWidth, client: e.clientWidth, overflow: getComputedStyle(e).textOverflow}; };
        return {title: box('.title'), notes: box('.notes'), due: box('.due'), priority: box('.priority'), tags: box('.tags')}; });''')
    eq(['tomorrow 07:00', '13 days ago 09:30', 'tomorrow', '', ''], [c['due']['text'] for c in cells], 'the dues, from dueLocal')
    eq(1, len(set(c['due']['left'] for c in cells)), 'the due column lines up: %r' % [c['due']['left'] for c in cells])
    eq(1, len(set(c['priority']['left'] for c in cells)), 'the priority column lines up')
    eq(1, len(set(c['tags']['left'] for c in cells if c['tags']['text'])), 'the tags line up')
    truthy(cells[1]['due']['scroll'] <= cells[1]['due']['client'], 'the widest label fits its column: %r' % cells[1]['due'])
    truthy(cells[1]['due']['right'] <= cells[1]['priority']['left'], 'the priority after the due')
    truthy(cells[1]['priority']['right'] <= cells[1]['tags']['left'], 'the tags after the priority')
    eq('!!!', cells[1]['priority']['text'], 'the priority mark')
    long = cells[2]
    truthy(long['title']['scroll'] > long['title']['client'] and long['title']['overflow'] == 'ellipsis', 'the long title is cut with …: %r' % long['title'])
    truthy(long['notes'] and long['title']['right'] <= long['notes']['left'] and long['notes']['right'] <= long['due']['left'], 'the notes mark inside the title column: %r' % long)
    eq('Bell\\u{7} title', cells[4]['title']['text'], 'a control in a title shown escaped')
    pane.screenshot('columns-dark')
    # The form shows the due as the grammar reads it back, on the client's wall clock; saved unchanged, it stays.
    pane.keys(Keys.HOME)
    pane.keys('e')
    form_open = "return document.activeElement === document.querySelector('.details input[name=due]');"
    wait(lambda: pane.js(form_open), 'the detail form')
    eq('2026-11-28 07:00', pane.value('.details input[name=due]'), 'the due in the form')
    pane.click('.details button[type=submit]')
    wait(lambda: pane.js("return document.querySelector('.details').hidden;"), 'the form closed')
    item = relay.request('items/get', {'id': pane.rows()[0][1]})
    eq(('2026-11-27T17:00:00Z', '2026-11-28T07:00'), (item['due'], item['dueLocal']), 'the due unchanged')
    # A typed due: read in the client's zone.
    pane.keys('e')
    wait(lambda: pane.js(form_open), 'the detail form again')
    act(driver, 'clear the due', lambda: pane.element('.details input[name=due]'), lambda node: node.clear())
    pane.type('.details input[name=due]', '2026-11-29 08:15')
    pane.click('.details button[type=submit]')
    wait(lambda: pane.js("return document.querySelector('.row[data-index=\"0\"] .due').textContent;") == 'in 2 days 08:15', 'the new due shown')
    wait(lambda: pane.js("return document.querySelector('.details').hidden;"), 'the form closed on the answer')
    eq('2026-11-29T08:15', relay.request('items/get', {'id': pane.rows()[0][1]})['dueLocal'], 'stored as typed on the wall clock')
    # Stored names in messages and menus go through the escaping.
    pane.keys(Keys.HOME, Keys.ARROW_DOWN)
    pane.shift(Keys.ARROW_DOWN)
    options = wait(lambda: pane.js("return [...document.querySelectorAll('.bulk select option')].map(o => o.textContent);"), 'the bulk bar')
    truthy('Evil\\e[31mList' in options, 'the list name escaped in the menu: %r' % options)
    pane.keys(Keys.END)
    pane.keys(Keys.DELETE)
    wait(lambda: any(m.startswith('Deleted “Bell\\u{7} title”.') for m in pane.messages()), 'the title escaped in the message')
    pane.keys('u')
    wait(lambda: pane.messages() == ['undid: delete 1 task'], 'undid in words')


# Subtasks (issue 18) -------------------------------------------------------------------------------

def tree(relay, name, spec):
    """A list whose items are `spec` in tree order: (title, parent title or None, extra fields)."""
    list_id = relay.request('lists/create', {'name': name})['list']['id']
    ids = {}
    for entry in spec:
        title, parent = entry[0], entry[1] if len(entry) > 1 else None
        params = dict(entry[2] if len(entry) > 2 else {}, list=list_id, title=title)
        if parent:
            params['parent'] = ids[parent]
        ids[title] = relay.request('items/create', params)['item']['id']
    return list_id, ids


def small_trip(ctx):
    """A pane on a fresh list Trip holding A (with its subtask A1) and B, ready and settled: the relay, the ids by
    title and the pane."""
    relay = ctx.relay(new_store())
    list_id, ids = tree(relay, 'Trip', [('A',), ('A1', 'A'), ('B',)])
    pane = Pane(ctx.browser(), relay, {'list': list_id}, name='Trip')
    pane.ready(3)
    pane.settle()
    return relay, ids, pane


def shape(pane):
    """The model's rows as `title:depth`, in order (the page's own model, which the DOM shows)."""
    return ' '.join(pane.js("return window.tasklsPane.model.rows.map(r => r.title + ':' + r.depth);"))


def tree_cells(pane):
    """Per DOM row, top to bottom: (title, fold marker, count, the check box's left edge, classes)."""
    return [tuple(r) for r in pane.js('''return [...document.querySelectorAll('.spacer .row')]
        .sort((a, b) => Number(a.dataset.index) - Number(b.dataset.index))
        .map(n => [n.querySelector('.title').textContent, n.querySelector('.twisty').textContent,
                   n.querySelector('.count') ? n.querySelector('.count').textContent : '',
                   Math.round(n.querySelector('.check').getBoundingClientRect().left), n.className]);''')]


@test('the tree: rows indented by depth with chevrons and done/total counts; a filter\'s context rows dimmed; ops only')
def tree_rendering(ctx):
    relay = ctx.relay(new_store())
    list_id, ids = tree(relay, 'Trip', [('Plan the trip',), ('Book flights', 'Plan the trip', {'done': True}), ('Hotel', 'Plan the trip'),
                                        ('Compare prices', 'Hotel'), ('Pack', 'Plan the trip'), ('Groceries',), ('Buy milk', 'Groceries')])
    driver = ctx.browser()
    pane = Pane(driver, relay, {'list': list_id}, name='Trip')
    pane.ready(7)
    pane.settle()
    cells = tree_cells(pane)
    eq(['Plan the trip', 'Book flights', 'Hotel', 'Compare prices', 'Pack', 'Groceries', 'Buy milk'], [c[0] for c in cells], 'the order')
    eq(['▾', '', '▾', '', '', '▾', ''], [c[1] for c in cells], 'the fold column')
    eq(['1/3', '', '0/1', '', '', '0/1', ''], [c[2] for c in cells], 'subtasks done out of all')
    depths = [0, 1, 1, 2, 1, 0, 1]
    step = cells[1][3] - cells[0][3]
    truthy(step > 10, 'a level indents the row: %d px' % step)
    lefts = [c[3] for c in cells]
    truthy(all(abs(left - (lefts[0] + d * step)) <= 1 for d, left in zip(depths, lefts)),
           'check boxes line up by depth, one step a level (±1 px of rounding): %r' % lefts)
    truthy(lefts[3] - lefts[0] > 2 * step - 2, 'depth 2 is two levels in')
    label = pane.js("return document.querySelector('.spacer .row[data-index=\"2\"]').getAttribute('aria-label');")
    truthy('0/1' in label and 'level 2' in label and 'expanded' in label, 'the label says the place: %r' % label)
    pane.screenshot('tree-dark')
    # A subtask done: its parent's count follows, through two row updates (no snapshot, no other row rebuilt).
    before = pane.state()['stats']
    relay.request('items/update', {'id': ids['Pack'], 'done': True})
    wait(lambda: tree_cells(pane)[0][2] == '2/3', "the parent's count")
    wait(lambda: 'done' in tree_cells(pane)[4][4].split(), 'Pack shown done')
    pane.settle()
    after = pane.state()['stats']
    eq(before['snapshots'], after['snapshots'], 'no snapshot')
    eq(2, after['rowsBuilt'] - before['rowsBuilt'], 'Pack and its parent rebuilt, nothing else')
    pane.check_exact()
    # A filter: the ancestors of matches are shown dimmed, as context rows.
    pane.type('input.filter', 'milk', Keys.ENTER)
    wait(lambda: shape(pane) == 'Groceries:0 Buy milk:1', 'the filter')
    wait(lambda: 'context' in (pane.classes_of('Groceries') or ''), 'Groceries dimmed')
    truthy('context' not in pane.classes_of('Buy milk'), 'a match is not dimmed')
    eq('0.6', pane.js("return getComputedStyle(document.querySelector('.row.context .title-cell')).opacity;"), 'dimmed')
    eq('1', pane.js("return getComputedStyle(document.querySelector('.row.context .twisty')).opacity;"), 'its chevron is not')
    pane.screenshot('tree-context-dark')
    pane.check_exact()
    # Light theme, for the eye.
    light = Pane(ctx.browser(), relay, {'list': list_id}, theme='light', name='Trip')
    light.ready(7)
    light.settle()
    light.screenshot('tree-light')


@test('Left/Right and the chevron collapse and expand through the server; Collapse All / Expand All; the focus keeps its task')
def tree_folding(ctx):
    relay = ctx.relay(new_store())
    list_id, ids = tree(relay, 'Trip', [('A',), ('A1', 'A'), ('A1a', 'A1'), ('A2', 'A'), ('B',)])
    driver = ctx.browser()
    pane = Pane(driver, relay, {'list': list_id}, name='Trip')
    pane.ready(5)
    pane.settle()
    snapshots = pane.state()['stats']['snapshots']
    click_title(pane, 'A1')
    pane.keys(Keys.ARROW_LEFT)
    wait(lambda: shape(pane) == 'A:0 A1:1 A2:1 B:0', 'A1 collapsed')
    wait(lambda: tree_cells(pane)[1][1] == '▸', 'the collapsed chevron')
    eq(4, len(pane.rows()), 'four DOM rows')
    eq('A1', focused_title(pane), 'the focus on A1')
    pane.keys(Keys.ARROW_RIGHT)
    wait(lambda: pane.state()['count'] == 5, 'A1 expanded')
    eq('A1', focused_title(pane), 'the focus stays on A1')
    pane.keys(Keys.ARROW_RIGHT)
    wait(lambda: focused_title(pane) == 'A1a', 'Right on an expanded task: its first subtask')
    pane.keys(Keys.ARROW_RIGHT)
    eq('A1a', focused_title(pane), 'Right on a leaf does nothing')
    pane.keys(Keys.ARROW_LEFT)
    wait(lambda: focused_title(pane) == 'A1', 'Left on a leaf: its parent')
    eq(5, pane.state()['count'], 'nothing collapsed')
    # A click on A's chevron collapses it; the hidden rows are gone, A focused.
    click_title(pane, 'A', part='.twisty')
    wait(lambda: shape(pane) == 'A:0 B:0', 'A collapsed by its chevron')
    eq('A', focused_title(pane), 'the focus on A (its collapsed ancestor)')
    wait(lambda: tree_cells(pane)[0][1] == '▸', 'its chevron shows it collapsed')
    click_title(pane, 'A', part='.twisty')
    wait(lambda: pane.state()['count'] == 5, 'expanded by its chevron')
    # Collapse All / Expand All (the pane's title menu): a hidden focused task hands the focus to
    # the row that now stands for it.
    click_title(pane, 'A1a')
    relay.control('collapseAll', pane=relay.control('panes')[0]['id'])
    wait(lambda: shape(pane) == 'A:0 B:0', 'Collapse All')
    eq('A', focused_title(pane), 'the focus on the row standing for A1a')
    wait(lambda: [c[1] for c in tree_cells(pane)] == ['▸', ''], 'A shown collapsed')
    pane.keys(Keys.ARROW_RIGHT)
    wait(lambda: shape(pane) == 'A:0 A1:1 A2:1 B:0', 'Right on A: A1 is still collapsed')
    relay.control('expandAll', pane=relay.control('panes')[0]['id'])
    wait(lambda: pane.state()['count'] == 5, 'Expand All')
    eq('A', focused_title(pane), 'the focus stays on A')
    eq(snapshots, pane.state()['stats']['snapshots'], 'ops only: no snapshot')
    # The server keeps it per view: another pane on the list is not collapsed.
    pane.keys(Keys.ARROW_LEFT)
    wait(lambda: pane.state()['count'] == 2, 'A collapsed again')
    other = Pane(ctx.browser(), relay, {'list': list_id}, name='Trip')
    other.ready(5)
    pane.check_exact()


@test('Collapse All / Expand All far from the fetched rows: view/locate keeps the focus on its task')
def tree_folding_far(ctx):
    relay = ctx.relay(new_store())
    spec = [('P',)] + [('P%d' % i, 'P') for i in range(1, 201)] + [('Z%d' % i,) for i in range(1, 51)]
    list_id, ids = tree(relay, 'Long', spec)
    pane = Pane(ctx.browser(), relay, {'list': list_id}, name='Long')
    pane.ready(251)
    pane.settle()
    focus_at = lambda: pane.js('return window.tasklsPane.focusIndex;')
    # Z25 (index 225), with the fetched rows around it: the top ones are not.
    click_title(pane, 'P1')
    pane.keys(Keys.END)
    wait(lambda: focused_title(pane) == 'Z50', 'End: Z50')
    pane.settle()
    for _ in range(25):
        pane.keys(Keys.ARROW_UP)
    wait(lambda: focused_title(pane) == 'Z25', 'Z25 focused')
    pane.settle()
    host = relay.control('host', pane=relay.control('panes')[0]['id'])
    truthy(host['window']['start'] > 25, 'the rows above index 25 are not fetched: %r' % host['window'])
    relay.control('collapseAll', pane=relay.control('panes')[0]['id'])
    wait(lambda: pane.state()['count'] == 51 and focused_title(pane) == 'Z25', 'Collapse All: the focus on Z25')
    eq(25, focus_at(), 'at its new index')
    eq(1, pane.state()['stats']['located'], 'found with one view/locate')
    pane.settle()
    relay.control('expandAll', pane=relay.control('panes')[0]['id'])
    wait(lambda: pane.state()['count'] == 251 and focused_title(pane) == 'Z25', 'Expand All: the focus on Z25')
    eq(225, focus_at(), 'at its index again')
    eq(2, pane.state()['stats']['located'], 'found again with one view/locate')
    pane.settle()
    pane.check_exact()


@test('Tab and Shift+Tab indent and outdent (the parent\'s count follows); a refusal is one line in words')
def tree_indenting(ctx):
    relay = ctx.relay(new_store())
    list_id, ids = tree(relay, 'Work', [('A',), ('B',), ('C',), ('D',)])
    driver = ctx.browser()
    pane = Pane(driver, relay, {'list': list_id}, name='Work')
    pane.ready(4)
    pane.settle()
    click_title(pane, 'B')
    pane.keys(Keys.TAB)
    wait(lambda: shape(pane) == 'A:0 B:1 C:0 D:0', 'B indented')
    wait(lambda: tree_cells(pane)[0][1:3] == ('▾', '0/1'), "A's chevron and count")
    eq(ids['A'], relay.request('items/get', {'id': ids['B']})['parent'], 'B under A in the store')
    eq('B', focused_title(pane), 'the focus on B')
    truthy(pane.js('return document.activeElement === document.querySelector(".scroller");'), 'Tab stayed in the list')
    click_title(pane, 'C')
    pane.keys(Keys.TAB)
    wait(lambda: shape(pane) == 'A:0 B:1 C:1 D:0', 'C the last subtask of A')
    pane.keys(Keys.TAB)
    wait(lambda: shape(pane) == 'A:0 B:1 C:2 D:0', 'C under B')
    wait(lambda: [c[2] for c in tree_cells(pane)] == ['0/1', '0/1', '', ''], 'the counts')
    pane.shift(Keys.TAB)
    wait(lambda: shape(pane) == 'A:0 B:1 C:1 D:0', 'C outdented')
    eq('C', focused_title(pane), 'the focus on C')
    # Two selected at once (Shift+Down), outdented together.
    click_title(pane, 'B')
    pane.shift(Keys.ARROW_DOWN)
    wait(lambda: len(pane.state()['selection']) == 2, 'B and C selected')
    pane.shift(Keys.TAB)
    wait(lambda: shape(pane) == 'A:0 B:0 C:0 D:0', 'both outdented')
    wait(lambda: tree_cells(pane)[0][1:3] == ('', ''), 'A lost its chevron and count')
    # Refusals: one line each, in words; nothing changes.
    version = pane.state()['version']
    click_title(pane, 'A')
    pane.keys(Keys.TAB)
    wait(lambda: pane.messages() == ['cannot indent "A": no task above it at its level to become a subtask of'], 'the refusal')
    click_title(pane, 'D')
    pane.shift(Keys.TAB)
    wait(lambda: pane.messages() == ['cannot outdent "D": it is already at the top level'], 'the second refusal')
    eq('warning', pane.js("return document.querySelector('.messages .message').className.split(' ')[1];"), 'a warning')
    eq(version, pane.state()['version'], 'nothing changed')
    pane.screenshot('tree-refusal-dark')
    # One undo step each.
    click_title(pane, 'B')
    pane.keys(Keys.TAB)
    wait(lambda: shape(pane) == 'A:0 B:1 C:0 D:0', 'B indented again')
    pane.keys('u')
    wait(lambda: shape(pane) == 'A:0 B:0 C:0 D:0', 'undone')
    pane.check_exact()


@test('Ctrl+Enter adds a first subtask below the focused task (expanding it); o keeps the tree; the title menu asks too')
def tree_adding(ctx):
    relay, ids, pane = small_trip(ctx)
    # Each add: the box open for its place before typing, the row and then the page's answer (which
    # focuses the new task) awaited before the next click.
    click_title(pane, 'B')
    ctrl(pane, Keys.ENTER)
    add_opened(pane, 'subtask', 'subtask of “B”')
    add_line(pane, 'B first')
    wait(lambda: shape(pane) == 'A:0 A1:1 B:0 B first:1', 'a subtask of B')
    add_answered(pane)
    eq('B first', focused_title(pane), 'the focus on the new task')
    eq(ids['B'], relay.request('items/get', {'id': pane.state()['focused']})['parent'], 'in the store')
    truthy('subtask' not in pane.js("return document.querySelector('input.add').placeholder;"), 'the box is back to adding tasks')
    # On a collapsed task: expanded first, the new task its first subtask; the grammar still applies.
    click_title(pane, 'A')
    pane.keys(Keys.ARROW_LEFT)
    wait(lambda: shape(pane) == 'A:0 B:0 B first:1', 'A collapsed')
    ctrl(pane, Keys.ENTER)
    add_opened(pane, 'subtask', 'subtask of “A”')
    add_line(pane, 'A0 !high')
    wait(lambda: shape(pane) == 'A:0 A0:1 A1:1 B:0 B first:1', 'A expanded with its first subtask')
    add_answered(pane)
    eq('A0', focused_title(pane), 'the focus on the new task')
    eq('high', pane.js('return window.tasklsPane.model.rows[1].priority;'), 'quick entry read the fields')
    # o on the last subtask: its sibling (not a top-level task); o on a task whose subtasks show: the first of them.
    click_title(pane, 'A1')
    pane.keys('o')
    add_opened(pane, 'below')
    add_line(pane, 'A2')
    wait(lambda: shape(pane) == 'A:0 A0:1 A1:1 A2:1 B:0 B first:1', 'o on the last subtask')
    add_answered(pane)
    click_title(pane, 'B')
    pane.keys('o')
    add_opened(pane, 'below')
    add_line(pane, 'B zero')
    wait(lambda: shape(pane) == 'A:0 A0:1 A1:1 A2:1 B:0 B zero:1 B first:1', 'o on B')
    add_answered(pane)
    # A subtask in another list is refused in words; the text stays to be changed. (The new list's
    # overview redraws every row on the page: the click below finds A2's row afresh.)
    relay.request('lists/create', {'name': 'Elsewhere'})
    click_title(pane, 'A2')
    ctrl(pane, Keys.ENTER)
    add_opened(pane, 'subtask', 'subtask of “A2”')
    add_line(pane, 'Stray @Elsewhere')
    wait(lambda: any('not in list' in m for m in pane.messages()), 'the refusal: %r' % pane.messages())
    eq('Stray @Elsewhere', pane.value('input.add'), 'the text kept')
    pane.type('input.add', Keys.ESCAPE, what='the add box')
    wait(lambda: pane.js("const a = document.querySelector('input.add'); return a.value === '' && a.dataset.where === 'end' && document.activeElement === document.querySelector('.scroller');"),
         'Escape: the box emptied and closed, the focus back on the list')
    eq(7, pane.state()['count'], 'nothing added')
    eq(7, relay.request('view/snapshot', {'view': pane.js('return window.tasklsPane.model.view;')})['count'], 'nothing added in the store')
    # Add Subtask Below from the pane's title menu (the host asks the page).
    click_title(pane, 'A2')
    relay.control('command', pane=relay.control('panes')[0]['id'], name='addSubtask')
    add_opened(pane, 'subtask', 'subtask of “A2”')
    add_line(pane, 'A2 first')
    wait(lambda: shape(pane) == 'A:0 A0:1 A1:1 A2:1 A2 first:2 B:0 B zero:1 B first:1', 'a subtask of A2')
    add_answered(pane)
    eq('A2 first', focused_title(pane), 'the focus on the new task')
    pane.check_exact()

@test("an add's answer moves the focus to the new task only when the user is still where Enter left them")
def add_focus(ctx):
    relay = ctx.relay(new_store())
    list_id = relay.seed('Inbox', ['A', 'B', 'C'])
    driver = ctx.browser()
    pane = Pane(driver, relay, {'list': list_id}, name='Inbox')
    pane.ready(3)
    pane.settle()
    click_title(pane, 'B')
    pane.keys('a')
    add_opened(pane, 'end')
    # The answer held back (the relay's hold, any machine's speed): the new row arrives, the user moves on
    # (a click on C, then Home), and only then the answer comes.
    relay.control('holdReplies')
    add_line(pane, 'New')
    pane.row_id('New')
    click_title(pane, 'C')
    pane.keys(Keys.HOME)
    wait(lambda: focused_title(pane) == 'A', 'Home on A')
    truthy(relay.control('releaseReplies') > 0, 'the answer was held back')
    add_answered(pane)
    pane.settle()
    eq('A', focused_title(pane), 'the focus left where the user put it')
    eq([pane.row_id('A')], pane.state()['selection'], 'the selection left too')
    truthy(pane.js("return document.activeElement === document.querySelector('.scroller');"), 'the list keeps the keyboard focus')
    # The next keys act on A, not on the new task.
    pane.keys('x')
    wait(lambda: relay.request('items/get', {'id': pane.row_id('A')})['done'], 'A done')
    eq(False, relay.request('items/get', {'id': pane.row_id('New')})['done'], 'the new task untouched')
    # Into another control (the filter) meanwhile: the answer does not take the focus back either.
    pane.keys('a')
    add_opened(pane, 'end')
    relay.control('holdReplies')
    add_line(pane, 'Newer')
    pane.row_id('Newer')
    pane.click('.filter', 'the filter')
    wait(lambda: pane.js("return document.activeElement === document.querySelector('.filter');"), 'the filter focused')
    relay.control('releaseReplies')
    add_answered(pane)
    pane.settle()
    eq('A', focused_title(pane), 'the focus still on A')
    truthy(pane.js("return document.activeElement === document.querySelector('.filter');"), 'the filter keeps the keyboard focus')
    # Still in the box when the answer comes: the new task is focused (and the box keeps the keyboard focus
    # for the next line).
    pane.click('input.add', 'the add box')
    relay.control('holdReplies')
    add_line(pane, 'Newest')
    pane.row_id('Newest')
    relay.control('releaseReplies')
    add_answered(pane)
    eq('Newest', focused_title(pane), 'the focus on the new task')
    eq([pane.row_id('Newest')], pane.state()['selection'], 'the new task selected')
    truthy(pane.js("return document.activeElement === document.querySelector('input.add');"), 'the box keeps the keyboard focus')
    pane.check_exact()


@test('the add box remembers the task it adds a subtask of until it is done or Escape; a deleted one is refused in words')
def add_subtask_target(ctx):
    relay, ids, pane = small_trip(ctx)
    # Ctrl+Enter on B, a click on A, a click back into the box: still a subtask of B, as the box says.
    click_title(pane, 'B')
    ctrl(pane, Keys.ENTER)
    add_opened(pane, 'subtask', 'subtask of “B”')
    click_title(pane, 'A')
    pane.click('input.add', 'the add box')
    add_opened(pane, 'subtask', 'subtask of “B”')
    add_line(pane, 'B first')
    wait(lambda: shape(pane) == 'A:0 A1:1 B:0 B first:1', 'a subtask of B, not of A')
    add_answered(pane)
    eq(ids['B'], relay.request('items/get', {'id': pane.row_id('B first')})['parent'], 'under B in the store')
    truthy('subtask' not in pane.js("return document.querySelector('input.add').placeholder;"), 'done: the box is back to adding tasks')
    # Escape ends the mode: the next line in the box is a plain task at the end, whatever was focused.
    click_title(pane, 'A1')
    ctrl(pane, Keys.ENTER)
    add_opened(pane, 'subtask', 'subtask of “A1”')
    pane.type('input.add', Keys.ESCAPE, what='the add box')
    wait(lambda: pane.js("const a = document.querySelector('input.add'); return (a.dataset.where || 'end') === 'end' && !a.placeholder.includes('subtask')"
                         " && document.activeElement === document.querySelector('.scroller');"), 'Escape: the box back to a plain add')
    pane.click('input.add', 'the add box')
    add_opened(pane, 'end')
    add_line(pane, 'Plain')
    wait(lambda: shape(pane) == 'A:0 A1:1 B:0 B first:1 Plain:0', 'a plain task at the end')
    add_answered(pane)
    # The remembered task deleted meanwhile: refused in words, in the box too; the text stays, nothing added.
    click_title(pane, 'A1')
    ctrl(pane, Keys.ENTER)
    add_opened(pane, 'subtask', 'subtask of “A1”')
    pane.type('input.add', 'Orphan', what='the add box')
    relay.request('items/delete', {'ids': [ids['A1']]})
    wait(lambda: shape(pane) == 'A:0 B:0 B first:1 Plain:0', 'A1 gone from the page')
    pane.type('input.add', Keys.ENTER, what='the add box')
    refusal = 'cannot add a subtask of "A1": it was deleted'
    wait(lambda: refusal in pane.messages(), 'the refusal: %r' % pane.messages())
    eq('Orphan', pane.value('input.add'), 'the text kept')
    truthy(refusal in pane.js("return document.querySelector('input.add').placeholder;"), 'the box says so')
    pane.screenshot('subtask-parent-deleted-dark')
    eq('A:0 B:0 B first:1 Plain:0', shape(pane), 'nothing added')
    eq(4, relay.request('view/snapshot', {'view': pane.js('return window.tasklsPane.model.view;')})['count'], 'nothing added in the store')
    # Undone, the task is back: the box still adds to it.
    relay.request('undo')
    wait(lambda: shape(pane) == 'A:0 A1:1 B:0 B first:1 Plain:0', 'A1 back')
    pane.type('input.add', Keys.ENTER, what='the add box')
    wait(lambda: shape(pane) == 'A:0 A1:1 Orphan:2 B:0 B first:1 Plain:0', 'a subtask of A1 after all')
    add_answered(pane)
    eq(ids['A1'], relay.request('items/get', {'id': pane.row_id('Orphan')})['parent'], 'under A1 in the store')
    pane.check_exact()


@test('J/K and dragging move a task with its subtree, keeping its level where the rows allow; the focus follows')
def tree_moving(ctx):
    relay = ctx.relay(new_store())
    list_id, ids = tree(relay, 'Trip', [('A',), ('A1', 'A'), ('A2', 'A'), ('B',), ('C',)])
    driver = ctx.browser()
    pane = Pane(driver, relay, {'list': list_id}, name='Trip')
    pane.ready(5)
    pane.settle()
    click_title(pane, 'A')
    pane.keys('J')
    wait(lambda: shape(pane) == 'B:0 A:0 A1:1 A2:1 C:0', 'A and its subtasks below B')
    eq('A', focused_title(pane), 'the focus on A')
    pane.keys('J')
    wait(lambda: shape(pane) == 'B:0 C:0 A:0 A1:1 A2:1', 'below C')
    pane.keys('K')
    wait(lambda: shape(pane) == 'B:0 A:0 A1:1 A2:1 C:0', 'K')
    # A subtask keeps its depth: past its sibling, then past C it becomes C's subtask.
    click_title(pane, 'A1')
    pane.keys('J')
    wait(lambda: shape(pane) == 'B:0 A:0 A2:1 A1:1 C:0', 'A1 after A2, still under A')
    eq(ids['A'], relay.request('items/get', {'id': ids['A1']})['parent'], 'A1 under A')
    pane.keys('J')
    wait(lambda: shape(pane) == 'B:0 A:0 A2:1 C:0 A1:1', 'A1 under C')
    eq(ids['C'], relay.request('items/get', {'id': ids['A1']})['parent'], 'A1 under C in the store')
    eq('A1', focused_title(pane), 'the focus on A1')
    # A collapsed task moves with its hidden subtree.
    click_title(pane, 'A')
    pane.keys(Keys.ARROW_LEFT)
    wait(lambda: shape(pane) == 'B:0 A:0 C:0 A1:1', 'A collapsed')
    pane.keys('K')
    wait(lambda: shape(pane) == 'A:0 B:0 C:0 A1:1', 'A up, collapsed')
    pane.keys(Keys.ARROW_RIGHT)
    wait(lambda: shape(pane) == 'A:0 A2:1 B:0 C:0 A1:1', 'its subtask came along')
    # Dragging A (with A2) to the end: after C's subtree, at the top level (the drag finds its row by
    # its rendered index: the rows rendered first).
    pane.settle()
    pane.js(DRAG, 0, 5)
    wait(lambda: shape(pane) == 'B:0 C:0 A1:1 A:0 A2:1', 'A dragged to the end with A2')
    eq(None, relay.request('items/get', {'id': ids['A']})['parent'], 'A at the top level')
    pane.check_exact()


# Repeating tasks and smart lists (issue 19) -------------------------------------------------------

def row_cell(pane, title, css):
    """The text and tooltip of the cell `css` of the DOM row titled `title` (None when not shown)."""
    return pane.js('''const t = [...document.querySelectorAll('.spacer .row .title')].find(n => n.textContent === arguments[0]);
        const c = t && t.closest('.row').querySelector(arguments[1]); return c ? [c.textContent, c.title] : null;''', title, css)


@test('repeating tasks: a ↻ after the due; Space moves one on, said in words; > skips; refusals in words; the form\'s repeat and history; every … in the edit line')
def repeating(ctx):
    # Wednesday 2026-11-25, 11:00 in Paris.
    relay = ctx.relay(new_store(), ['--clock', '2026-11-25T10:00:00Z'])
    home = relay.seed('Home', [])
    for text in ['Pay rent ^2026-12-01 every month on the 1st', 'Standup ^today 9:00 every week', 'Water plants every 3 days after done', 'Plain task ^fri']:
        relay.request('items/create', relay.request('text/parseItem', {'text': text, 'list': home})['fields'])
    driver = ctx.browser(900, 480)
    pane = Pane(driver, relay, {'list': home}, name='Home')
    pane.ready(4)
    pane.settle()
    eq(['↻', 'Repeats every month on the 1st'], row_cell(pane, 'Pay rent', '.repeat'), 'the ↻ of a monthly task, its words in the tooltip')
    eq(['↻', 'Repeats every 3 days after done'], row_cell(pane, 'Water plants', '.repeat'), 'from completion')
    eq(['', ''], row_cell(pane, 'Plain task', '.repeat'), 'a plain task has none')
    lefts = pane.js("return [...document.querySelectorAll('.spacer .row .repeat')].map(n => n.getBoundingClientRect().left);")
    eq(1, len(set(lefts)), 'the ↻ column lines up: %r' % lefts)
    truthy('↻' in pane.js("return document.querySelector('.spacer .row[data-index=\"0\"]').getAttribute('aria-label');"), 'the ↻ in the row\'s label')
    pane.screenshot('repeat-dark')
    # Space on a repeating task: it moves on to its next due, and the pane says so in one line.
    click_title(pane, 'Standup')
    pane.keys(Keys.SPACE)
    wait(lambda: pane.messages() == ['"Standup" repeats (every week): next due in 7 days 09:00'], 'the line about the next due')
    wait(lambda: row_cell(pane, 'Standup', '.due') == ['in 7 days 09:00', ''], 'the row at its next due')
    truthy('done' not in pane.classes_of('Standup'), 'not done')
    # > skips; a task that does not repeat is refused in words, nothing changed.
    click_title(pane, 'Water plants')
    pane.keys('>')
    wait(lambda: pane.messages() == ['skipped "Water plants": next due in 3 days'], 'the skip in words')
    wait(lambda: row_cell(pane, 'Water plants', '.due')[0] == 'in 3 days', 'the skipped row')
    click_title(pane, 'Plain task')
    pane.keys('>')
    wait(lambda: len(pane.messages()) == 1 and pane.messages()[0].startswith('"Plain task" does not repeat'), 'the refusal in words')
    eq('in 2 days', row_cell(pane, 'Plain task', '.due')[0], 'the refused task unchanged')
    # Several at once: the bulk bar's Skip, one line each.
    click_title(pane, 'Pay rent')
    pane.shift(Keys.ARROW_DOWN)
    wait(lambda: pane.js("const b = document.querySelector('.bulk'); return !b.hidden && b.dataset.count === '2';"), 'the bulk bar for two')
    act(driver, 'click Skip in the bulk bar', lambda: driver.find_element(By.XPATH, "//div[contains(@class,'bulk')]/button[text()='Skip']"), lambda node: node.click())
    wait(lambda: pane.messages() == ['skipped "Pay rent": next due 2027-01-01', 'skipped "Standup": next due 2026-12-09 09:00'], 'both skips in words')
    # The form: the repeat in the server's words, the history; a new phrase saved; emptied, it stops.
    click_title(pane, 'Water plants')
    pane.keys('e')
    form_open = "return document.activeElement === document.querySelector('.details input[name=due]');"
    wait(lambda: pane.js(form_open), 'the detail form')
    eq('every 3 days after done', pane.value('.details input[name=repeat]'), 'the repeat in the form')
    eq('0 done, 1 skipped; last skipped 2026-11-25', pane.js("return document.querySelector('.details .history').textContent;"), 'the history')
    pane.screenshot('repeat-details-dark')
    act(driver, 'clear the repeat', lambda: pane.element('.details input[name=repeat]'), lambda node: node.clear())
    pane.type('.details input[name=repeat]', 'every other week')
    pane.click('.details button[type=submit]')
    wait(lambda: pane.js("return document.querySelector('.details').hidden;"), 'the form closed')
    wait(lambda: row_cell(pane, 'Water plants', '.repeat') == ['↻', 'Repeats every other week'], 'the new repeat on the row')
    pane.keys('e')
    wait(lambda: pane.js(form_open), 'the detail form again')
    act(driver, 'clear the repeat', lambda: pane.element('.details input[name=repeat]'), lambda node: node.clear())
    pane.click('.details button[type=submit]')
    wait(lambda: row_cell(pane, 'Water plants', '.repeat') == ['', ''], 'no longer repeating')
    item = relay.request('items/get', {'id': pane.row_id('Water plants')})
    eq((None, '2026-11-28', 1), (item['repeat'], item['due'], item['occurrences']['skipped']), 'the due and the history stay')
    # The edit line: every … sets a repeat and keeps the due.
    click_title(pane, 'Plain task')
    pane.keys(Keys.ENTER)
    wait(lambda: pane.js("return document.activeElement === document.querySelector('.row input.inline');"), 'the inline editor')
    pane.type('.row input.inline', Keys.END, ' every fri', Keys.ENTER)
    wait(lambda: row_cell(pane, 'Plain task', '.repeat') == ['↻', 'Repeats every fri'], 'the repeat from the edit line')
    eq('in 2 days', row_cell(pane, 'Plain task', '.due')[0], 'the due kept')
    # Stop Repeating (the title menu's, through the host as extension.js runs it) on the focused task.
    relay.control('command', pane=relay.control('panes')[0]['id'], name='stopRepeating')
    wait(lambda: pane.messages() == ['no longer repeating: "Plain task"'], 'stopped, in words')
    wait(lambda: row_cell(pane, 'Plain task', '.repeat') == ['', ''], 'the ↻ gone')
    # A task's reminders, in words, in its form.
    relay.request('items/update', {'id': pane.row_id('Pay rent'), 'alerts': [{'offset': 540}, {'offset': -360}, {'at': '2026-11-26T08:30:00Z'}]})
    click_title(pane, 'Pay rent')
    pane.keys('e')
    wait(lambda: pane.js(form_open), 'the detail form of Pay rent')
    eq('on the day at 09:00; the day before at 18:00; tomorrow 09:30', pane.js("return document.querySelector('.details .alerts').textContent;"), 'its reminders')
    pane.keys(Keys.ESCAPE)
    pane.check_exact()


@test('a smart list\'s pane: rows across lists with their list; it closes in words when the smart list is deleted')
def smart_list_pane(ctx):
    relay = ctx.relay(new_store())
    home = relay.seed('Home', ['Buy stamps', 'Sleep'])
    work = relay.seed('Work', ['Post office', 'Report'])
    for list_id, title in [(home, 'Buy stamps'), (work, 'Post office')]:
        rows = relay.request('lists/open', {'list': list_id})['rows']
        relay.request('items/update', {'id': [r['id'] for r in rows if r['title'] == title][0], 'tags': ['errand']})
    smart = relay.request('smartLists/create', {'name': 'Errands', 'filter': {'tagsAnyOf': ['errand'], 'done': 'notDone'}, 'lists': None})['smartList']
    driver = ctx.browser(900, 360)
    pane = Pane(driver, relay, {'smartList': smart['id']}, name='Errands')
    pane.ready(2)
    pane.settle()
    eq(['Buy stamps', 'Post office'], pane.visible_titles(), 'its rows, across lists')
    eq(['Home', ''], row_cell(pane, 'Buy stamps', '.list'), 'a row says its list')
    eq(['Work', ''], row_cell(pane, 'Post office', '.list'), 'the other list')
    # Live: a task that comes to match enters; one done leaves.
    relay.request('items/update', {'id': [r['id'] for r in relay.request('lists/open', {'list': work})['rows'] if r['title'] == 'Report'][0], 'tags': ['errand']})
    wait(lambda: pane.state()['count'] == 3, 'the new match')
    click_title(pane, 'Buy stamps')
    pane.keys(Keys.SPACE)
    wait(lambda: pane.state()['count'] == 2, 'the done task left')
    pane.screenshot('smart-list-dark')
    pane.check_exact()
    relay.request('smartLists/delete', {'id': smart['id']})
    wait(lambda: pane.state_text() == 'This smart list was deleted.', 'the pane says so')
    pane.screenshot('smart-list-deleted-dark')


@test('screenshots of every state, light and dark')
def screenshots(ctx):
    relay = ctx.relay(new_store())
    inbox = relay.seed('Inbox', [])
    relay.seed('Work', [])
    today = relay.request('lists/list', {})['today']
    for title, extra in [
        ('Buy milk', {'due': today, 'priority': 'high', 'tags': ['home'], 'repeat': {'rule': 'FREQ=WEEKLY', 'from': 'due'}}),
        ('Call Ann about the trip', {'due': '2026-11-20', 'notes': 'flights'}),
        ('Renew passport', {'due': '2027-01-15', 'priority': 'medium'}),
        ('Water the plants', {'done': True}),
        ('Write the report', {'tags': ['work', 'q4'], 'priority': 'low'}),
        ('Tab\tin a title, shown escaped', {}),
    ]:
        relay.request('items/create', dict({'list': inbox, 'title': title}, **extra))
    for theme in ('dark', 'light'):
        driver = ctx.browser(760, 360)
        pane = Pane(driver, relay, {'list': inbox}, theme=theme, name='Inbox')
        pane.ready(6)
        pane.settle()
        pane.keys(Keys.HOME, Keys.ARROW_DOWN)
        pane.settle()
        pane.screenshot('pane-%s' % theme)
        eq('Tab\\tin a title, shown escaped', pane.visible_titles()[5], 'a control shown escaped')
        pane.choose('select[aria-label=Sections]', value='dueBucket')
        wait(lambda: pane.visible_titles()[0] == 'Overdue', 'sections')
        pane.settle()
        pane.screenshot('sections-%s' % theme)
        pane.choose('select[aria-label=Sections]', value='none')
        empty = Pane(driver, relay, {'list': relay.request('lists/list', {})['lists'][1]['id']}, theme=theme, name='Work')
        empty.ready(0)
        wait(lambda: empty.state_text() == 'No tasks — add one', 'empty')
        empty.screenshot('no-tasks-%s' % theme)
        filtered = Pane(driver, relay, {'list': inbox}, theme=theme, name='Inbox')
        filtered.ready(6)
        filtered.type('.filter', 'nothing like this', Keys.ENTER)
        wait(lambda: filtered.state_text() == 'No matches — clear the filter', 'no matches')
        filtered.screenshot('no-matches-%s' % theme)
        group = Pane(driver, relay, {'group': 'all'}, theme=theme, name='All')
        group.ready(5)
        group.settle()
        group.screenshot('group-all-%s' % theme)
    broken = ctx.relay('/dev/null/taskls')
    for theme in ('dark', 'light'):
        error = Pane(ctx.browser(760, 320), broken, {'group': 'today'}, theme=theme)
        wait(lambda: (error.state_text() or '').startswith('Error: '), 'the error')
        error.screenshot('error-%s' % theme)
    loading_store, list_id = big_store()
    held = ctx.relay(loading_store, ['--hold-load'])
    for theme in ('dark', 'light'):
        loading = Pane(ctx.browser(760, 320), held, {'list': list_id}, theme=theme)
        wait(lambda: loading.state_text() == 'Loading… 0%', 'loading')
        loading.screenshot('loading-%s' % theme)


# Running ---------------------------------------------------------------------------------------------

class Context:
    """What one test started; everything is stopped after it, whatever happened."""

    def __init__(self):
        self.relays = []
        self.drivers = []

    def relay(self, store, serve_args=(), time_zone=None):
        relay = Relay(store, serve_args, time_zone)
        self.relays.append(relay)
        return relay

    def browser(self, width=900, height=640):
        driver = browser(width, height)
        self.drivers.append(driver)
        return driver

    def close(self):
        for driver in self.drivers:
            try:
                driver.quit()
            except Exception:
                pass
        for relay in self.relays:
            relay.close()


def main():
    passed = failed = 0
    started = time.monotonic()
    for name, fn in tests:
        if options.filter and options.filter not in name:
            continue
        ctx = Context()
        began = time.monotonic()
        try:
            fn(ctx)
            for driver in ctx.drivers:
                eq([], driver.execute_script('return window.harness ? window.harness.violations : [];'), 'Content-Security-Policy violations')
            passed += 1
            print('ok - %s (%.1f s)' % (name, time.monotonic() - began), flush=True)
        except Exception as error:
            failed += 1
            print('not ok - %s\n  %s' % (name, ''.join(traceback.format_exception_only(type(error), error)).strip().replace('\n', '\n  ')), flush=True)
            traceback.print_exc(file=sys.stderr)
            try:
                if ctx.drivers:
                    ctx.drivers[-1].save_screenshot(os.path.join(ARTIFACTS, 'failed-%s.png' % fn.__name__))
            except Exception:
                pass
        finally:
            ctx.close()
    print('screenshots: %s (%.0f s)' % (ARTIFACTS, time.monotonic() - started))
    if options.readme and os.path.exists(os.path.join(ARTIFACTS, 'pane-dark.png')):
        shutil.copyfile(os.path.join(ARTIFACTS, 'pane-dark.png'), os.path.join(HERE, '..', '..', 'media', 'screenshot.png'))
    print('vscode-webview: %d passed, %d failed' % (passed, failed))
    shutil.rmtree(os.path.join(TMP, 'stores'), ignore_errors=True)  # the screenshots stay
    sys.exit(0 if failed == 0 and passed > 0 else 1)


if __name__ == '__main__':
    main()
