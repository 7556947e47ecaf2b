/// ARCHITECTURE.md's claim about the quick-entry grammars: a pure module that imports only the domain (no
/// Foundation: no clock, no time zone database; the server passes them in).

import Testing
import TestSupport

/// The Swift files under `Sources/NAME` with their text.
private func sources(_ name: String) -> [(path: String, text: String)] {
    let root = BuildPaths.repositoryRoot + "/Sources/" + name
    return names(in: root).filter { $0.hasSuffix(".swift") }.compactMap { file in
        readTextFile(root + "/" + file).map { (file, $0) }
    }
}

@Test func theQuickEntryGrammarsImportOnlyTheDomain() {
    let files = sources("QuickEntry")
    #expect(files.count >= 8, "only \(files.count) files found")
    for file in files {
        for line in file.text.split(separator: "\n") where line.hasPrefix("import ") {
            #expect(line == "import Domain", "\(file.path): \(line)")
        }
    }
}
