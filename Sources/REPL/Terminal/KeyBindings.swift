/// The line editor's bindings in words: what `help keys` prints, kept beside the keys so that a test can check
/// them against what `LineEditor` does.

extension LineEditor {
    /// Keys that do one thing in the line editor, as `help keys` lists them.
    struct Binding: Sendable {
        /// The keys as a person names them (`Ctrl-K  Ctrl-U`).
        let names: String
        /// The keys as the key decoder gives them.
        let keys: [Key]
        /// What they do.
        let action: String
    }

    /// Every key the editor acts on outside a reverse search (typed text aside), in the order `help keys` lists
    /// them.
    static let bindings: [Binding] = [
        Binding(names: "Left Right, Ctrl-B Ctrl-F", keys: [.left, .right, .control("b"), .control("f")], action: "a character back, forward"),
        Binding(names: "Alt-B Alt-F", keys: [.wordLeft, .wordRight], action: "a word back, forward (also Ctrl-Left, Ctrl-Right)"),
        Binding(names: "Home End, Ctrl-A Ctrl-E", keys: [.home, .end, .control("a"), .control("e")], action: "to the start, the end of the line"),
        Binding(names: "Backspace  Delete", keys: [.backspace, .delete], action: "delete the character before, under the cursor"),
        Binding(names: "Ctrl-D", keys: [.control("d")], action: "delete the character under the cursor; on an empty line, quit"),
        Binding(names: "Ctrl-K  Ctrl-U  Ctrl-W", keys: [.control("k"), .control("u"), .control("w")],
                action: "cut to the end, to the start, the word before (up to a space)"),
        Binding(names: "Alt-Backspace  Alt-D", keys: [.deleteWordLeft, .deleteWordRight], action: "cut the word before, after the cursor"),
        Binding(names: "Ctrl-Y", keys: [.control("y")], action: "paste what was cut"),
        Binding(names: "Ctrl-T", keys: [.control("t")], action: "swap the character before the cursor with the one under it"),
        Binding(names: "Up Down, Ctrl-P Ctrl-N", keys: [.up, .down, .control("p"), .control("n")], action: "the previous, next line of the history"),
        Binding(names: "Ctrl-R", keys: [.control("r")], action: "search the history (Ctrl-R again: further back; Ctrl-G: cancel)"),
        Binding(names: "Tab", keys: [.tab], action: "complete a command, list name or tag (twice: list the choices)"),
        Binding(names: "Ctrl-L", keys: [.control("l")], action: "clear the screen"),
        Binding(names: "Ctrl-C", keys: [.control("c")], action: "clear the line (twice on an empty line: quit)"),
        Binding(names: "Enter", keys: [.enter], action: "run the line"),
    ]
}
