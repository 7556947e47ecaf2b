/// The terminal's raw mode for line editing: entered and left around each line typed, and restored on every
/// way out — a normal end, a signal the loop handles, and a crash (a handler for the fatal signals puts the
/// terminal back, then lets the previous handler, the Swift runtime's backtracer, do its work).

#if canImport(Glibc)
import Glibc
#endif

/// The terminal settings to restore, shared with the crash handler (which may read them at any moment; they
/// are written only while no handler can run for them: before `installCrashHandlers`, or by the main loop).
nonisolated(unsafe) private var settingsToRestore = termios()
/// Whether raw mode is on (the crash handler restores only then).
nonisolated(unsafe) private var rawModeOn: sig_atomic_t = 0
/// The handlers that were in place before the crash handler, by signal number.
nonisolated(unsafe) private let previousCrashActions = UnsafeMutablePointer<sigaction>.allocate(capacity: 65)

/// Raw mode on standard input: no echo, no line buffering, no signals from keys (Ctrl-C and Ctrl-Z come as
/// bytes), 8-bit input with no CR→NL translation. Output processing stays on, so `\n` still ends a line.
struct RawMode {
    /// The descriptor of the terminal (standard input).
    let descriptor: Int32
    /// The settings before raw mode.
    private let original: termios

    /// Reads the terminal's settings; nil when `descriptor` is not a terminal.
    init?(descriptor: Int32 = 0) {
        var settings = termios()
        guard isatty(descriptor) == 1, tcgetattr(descriptor, &settings) == 0 else { return nil }
        self.descriptor = descriptor
        original = settings
        settingsToRestore = settings
    }

    /// Turns raw mode on. Keys typed before it are kept (TCSADRAIN, not TCSAFLUSH).
    func enter() {
        var raw = original
        raw.c_iflag &= ~tcflag_t(BRKINT | ICRNL | INPCK | ISTRIP | IXON)
        raw.c_cflag |= tcflag_t(CS8)
        raw.c_lflag &= ~tcflag_t(ECHO | ICANON | IEXTEN | ISIG)
        withUnsafeMutableBytes(of: &raw.c_cc) { characters in
            characters[Int(VMIN)] = 1
            characters[Int(VTIME)] = 0
        }
        if tcsetattr(descriptor, TCSADRAIN, &raw) == 0 { rawModeOn = 1 }
    }

    /// Restores the settings from before raw mode.
    func leave() {
        var settings = original
        tcsetattr(descriptor, TCSADRAIN, &settings)
        rawModeOn = 0
    }

    /// Installs handlers for the fatal signals (SIGSEGV, SIGBUS, SIGILL, SIGTRAP, SIGFPE, SIGABRT) that restore
    /// the terminal when raw mode is on, then hand the signal to the handler that was there before.
    static func installCrashHandlers() {
        previousCrashActions.initialize(repeating: sigaction(), count: 65)
        for signal in [SIGSEGV, SIGBUS, SIGILL, SIGTRAP, SIGFPE, SIGABRT] {
            var action = sigaction()
            action.__sigaction_handler.sa_handler = { number in
                if rawModeOn != 0 {
                    tcsetattr(0, TCSANOW, &settingsToRestore)
                    rawModeOn = 0
                }
                sigaction(number, previousCrashActions + Int(number), nil)
                raise(number)
            }
            sigemptyset(&action.sa_mask)
            action.sa_flags = 0
            sigaction(signal, &action, previousCrashActions + Int(signal))
        }
    }
}
