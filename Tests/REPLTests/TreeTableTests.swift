/// The table's tree: rows indented two cells per level before the title, fold markers, subtask counts, dim (or,
/// without colors, bracketed) context rows; titles cut to the column in terminal cells, wide characters included.

@testable import REPL
import Testing
import TasklsProtocol

/// A view of `rows` (items of list l1, ids i1, i2, … in order) as a snapshot shows it.
private func view(_ rows: [ItemRow]) throws -> ViewModel {
    let snapshot = ViewSnapshotResult(view: ViewID(1), version: 1, state: .ready, count: rows.count, window: Window(start: 0, end: 20),
                                      sort: Sort(.manual), source: .list(ListID(1)), rows: rows.map(Row.item))
    return try ViewModel(snapshot: snapshot)
}

/// An item row: the `n`th of the list, at `depth`.
private func row(_ n: UInt64, _ title: String, depth: Int = 0, children: Int = 0, open: Int = 0, shown: Bool = false,
                 collapsed: Bool = false, context: Bool = false, due: String? = nil, done: Bool = false) -> ItemRow {
    ItemRow(id: ItemID(n), list: ListID(1), parent: depth == 0 ? nil : ItemID(n - 1), depth: depth, title: title, done: done, due: due,
            children: children, openChildren: open, hasChildren: shown, collapsed: collapsed, context: context, revision: 1)
}

private func renderer(_ style: Style) -> TableRenderer {
    TableRenderer(style: style, day: REPLCalendar(timeZoneName: "UTC", manualNow: 1_795_341_600_000), listNames: [ListID(1): "Trip"])
}

/// The cells before the first character of `text` in `line` (which must contain it).
private func column(of text: String, in line: String) -> Int? {
    guard let range = line.range(of: text) else { return nil }
    return DisplayWidth.of(line[..<range.lowerBound])
}

@Test func rowsAreIndentedTwoCellsPerLevelWithMarkersAndCounts() throws {
    let lines = renderer(.plain(width: 60)).rows(try view([
        row(1, "旅行の計画", children: 2, open: 1, shown: true),
        row(2, "航空券を予約", depth: 1, children: 1, open: 1, shown: true, collapsed: true),
        row(3, "Pack", depth: 1, done: true),
        row(4, "Water the plants"),
    ]))
    #expect(lines == [
        "1 [ ] - 旅行の計画 [1/2]",
        "2 [ ]   + 航空券を予約 [0/1]",
        "3 [x]     Pack",
        "4 [ ]   Water the plants",
    ], "\(lines)")
    let unicode = renderer(Style(color: false, unicode: true, width: 60)).rows(try view([
        row(1, "Plan", children: 1, open: 1, shown: true), row(2, "Book", depth: 1, children: 3, open: 3, shown: true, collapsed: true),
    ]))
    #expect(unicode == ["1 ☐ ▾ Plan [0/1]", "2 ☐   ▸ Book [0/3]"], "\(unicode)")
}

@Test func aFlatWindowHasNoTreeColumn() throws {
    // No subtasks shown: the titles start right after the checkbox, as before subtasks; a count still says there
    // are some (a filter hides them).
    let lines = renderer(.plain(width: 60)).rows(try view([row(1, "Plan trip", children: 3, open: 2), row(2, "Buy milk")]))
    #expect(lines == ["1 [ ] Plan trip [1/3]", "2 [ ] Buy milk"], "\(lines)")
}

/// At every width and depth, with wide titles: each line fits the width, the due column starts at the same cell on
/// every row, the title is indented two cells per level (while it fits) and cut with an ellipsis, never mid-character.
@Test(arguments: [40, 52, 64])
func wideTitlesAreCutWithinTheColumnAtEveryDepth(width: Int) throws {
    let style = Style(color: false, unicode: true, width: width)
    let titles = ["牛乳と卵とパンとコーヒー豆を買う", "우유 사기 그리고 빵 사기", "🎉 パーティーの準備をする 🎉", "Plan the whole trip to Lisbon"]
    var rows: [ItemRow] = []
    for depth in 0...15 {
        rows.append(row(UInt64(depth + 1), titles[depth % titles.count], depth: depth, children: depth < 15 ? 1 : 0, open: 1,
                        shown: depth < 15, due: "2026-11-25"))
    }
    let lines = renderer(style).rows(try view(rows))
    #expect(lines.count == 16)
    let dueColumns = Set(lines.map { column(of: "in 3 days", in: $0) })
    #expect(dueColumns.count == 1 && dueColumns.first! != nil, "\(lines.joined(separator: "\n"))")
    let titleWidth = dueColumns.first!! - 2 - DisplayWidth.of("10 ☐ ")
    var cut = 0
    var capped = 0
    for (depth, line) in lines.enumerated() {
        #expect(DisplayWidth.of(line) <= width, "\(line)")
        let cell = String(line.dropFirst(5))  // the number (two cells) and the checkbox, then the title column
        // The spaces before the title: the indentation, then the marker's two cells when the row is a leaf.
        let leaf = depth == 15
        let indent = cell.prefix { $0 == " " }.count - (leaf ? 2 : 0)
        if 2 * depth + 2 + TableRenderer.shortestTitle <= titleWidth {
            #expect(indent == 2 * depth, "depth \(depth): \(line)")
        } else {
            // The indentation stops growing where the title would keep fewer than `shortestTitle` cells.
            #expect(indent < 2 * depth && indent == titleWidth - 2 - TableRenderer.shortestTitle, "depth \(depth): \(line)")
            capped += 1
        }
        let title = titles[depth % titles.count]
        if !line.contains(title) {
            #expect(line.contains("…"), "\(line)")
            let shown = cell.dropFirst(indent + 2).prefix { $0 != "…" }
            #expect(!shown.isEmpty, "\(line)")
            #expect(title.hasPrefix(shown), "\(line)")
            cut += 1
        }
    }
    #expect(cut > 0, "some titles were cut at \(width) columns")
    #expect(width > 52 || capped > 0, "the deepest rows were capped at \(width) columns")
}

@Test func contextRowsAreDimOrBracketed() throws {
    let rows = [
        row(1, "Plan trip", children: 1, open: 1, shown: true, context: true, due: "2026-11-20"),
        row(2, "Book flights", depth: 1, due: "2026-11-20"),
    ]
    let plain = renderer(.plain(width: 60)).rows(try view(rows))
    #expect(plain[0].hasPrefix("1 [ ] - (Plan trip) [0/1]"), "\(plain)")
    #expect(plain[1].hasPrefix("2 [ ]     Book flights "), "\(plain)")
    let colored = renderer(Style(color: true, unicode: true, width: 60)).rows(try view(rows))
    let dim = "\u{1B}[2m"
    let red = "\u{1B}[31m"
    // The context row: its checkbox, marker, title, count and due dim, its overdue due not red.
    #expect(colored[0].contains(dim + "☐"), "\(colored[0].debugDescription)")
    #expect(colored[0].contains(dim + "Plan trip"), "\(colored[0].debugDescription)")
    #expect(colored[0].contains(dim + "2 days ago"), "\(colored[0].debugDescription)")
    #expect(!colored[0].contains(red) && !colored[0].contains("(Plan trip)"), "\(colored[0].debugDescription)")
    // The matching row under it is not dim; its overdue due is red.
    #expect(!colored[1].contains(dim + "Book flights") && colored[1].contains(red + "2 days ago"), "\(colored[1].debugDescription)")
}

@Test func theCountGoesBeforeTheIndentationGivesWay() throws {
    // Width 40: a title column of 34 cells. At depth 12 (24 cells), the marker (2), a count (6 and a space) leave
    // one cell: the count goes, the title keeps 8. At depth 15 the indentation stops at 34 - 2 - 6 = 26 cells.
    let style = Style(color: false, unicode: true, width: 40)
    let cell = renderer(style).titleCell(row(13, "Passport", depth: 12, children: 10, open: 3, shown: true), width: 34, tree: true)
    #expect(cell == String(repeating: " ", count: 24) + "▾ Passport", "\(cell.debugDescription)")
    let deep = renderer(style).titleCell(row(16, "充電器を持っていく", depth: 15), width: 34, tree: true)
    #expect(deep == String(repeating: " ", count: 26) + "  充電… ", "\(deep.debugDescription)")
    #expect(DisplayWidth.of(deep) <= 34)
    let shallow = renderer(style).titleCell(row(1, "Passport", depth: 1, children: 10, open: 3, shown: true), width: 34, tree: true)
    #expect(shallow == "  ▾ Passport [7/10]" + String(repeating: " ", count: 34 - 19), "\(shallow.debugDescription)")
}
