// Exporting: the state (or some of its lists) as an `ExchangeDocument` a format's writer turns into a file.

extension TaskState {
    /// The lists `lists` (nil: every list, in their order) with their items in manual tree order (parents before
    /// their subtasks), every task with a uid (`ExchangeIdentity.uid(of:)`) and its list's name; the smart lists
    /// when every list is exported.
    /// - Complexity: O(n) for the n items exported.
    public func exportDocument(lists: [ListID]? = nil) -> ExchangeDocument {
        let chosen = lists.map { ids in ids.compactMap { self.lists[$0] } } ?? orderedLists
        var document = ExchangeDocument()
        for list in chosen {
            document.lists.append(ExchangeList(name: list.name, color: list.color, icon: list.icon,
                                               storeID: list.id.rawValue))
            for item in items(in: list.id, ranks: 0..<itemCount(in: list.id)) {
                document.tasks.append(exchangeTask(item, listName: list.name))
            }
        }
        if lists == nil {
            for smartList in smartLists.values.sorted(by: { $0.position < $1.position }) {
                let sources = smartList.rule.lists.map { ids in
                    orderedLists.filter { ids.contains($0.id) }.map(\.name)
                }
                document.smartLists.append(ExchangeSmartList(name: smartList.name, color: smartList.color,
                                                             icon: smartList.icon, filter: smartList.rule.filter,
                                                             lists: sources))
            }
        }
        return document
    }

    private func exchangeTask(_ item: Item, listName: String) -> ExchangeTask {
        ExchangeTask(uid: ExchangeIdentity.uid(of: item), list: listName,
                     parentUID: item.parent.flatMap { self.item($0) }.map(ExchangeIdentity.uid(of:)),
                     title: item.title, notes: item.notes, done: item.done, completedAt: item.completedAt,
                     createdAt: item.createdAt, modifiedAt: item.modifiedAt, due: item.due, priority: item.priority,
                     tags: item.tags, repeatRule: item.repeatRule, alerts: item.alerts, occurrences: item.occurrences,
                     extras: item.extras, storeID: item.id.rawValue)
    }
}
