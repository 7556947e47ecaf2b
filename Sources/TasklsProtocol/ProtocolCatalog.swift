/// Every message of the protocol and every schema, in one place: what `protocol.json` is generated
/// from, what the server's method table can be checked against, and what the tests walk.

/// The protocol's messages and types.
public enum ProtocolCatalog {
    /// Every request, client → server (the LSP lifecycle's `initialize` and `shutdown` included).
    public static let requests: [any RequestMessage.Type] = [
        Initialize.self, Shutdown.self,
        ServerPing.self, DebugSetClock.self,
        StoreStatus.self, StoreRetry.self, DebugContinueLoading.self, StoreImport.self, StoreExport.self,
        ListsList.self, ListsCreate.self, ListsUpdate.self, ListsDelete.self, ListsMove.self,
        SmartListsCreate.self, SmartListsUpdate.self, SmartListsDelete.self, SmartListsMove.self,
        ItemsCreate.self, ItemsGet.self, ItemsUpdate.self, ItemsDelete.self, ItemsMove.self, ItemsDuplicate.self,
        ItemsSkip.self, ItemsIndent.self, ItemsOutdent.self,
        ListsOpen.self, ViewSetWindow.self, ViewSort.self, ViewFilter.self, ViewSections.self, ViewSnapshot.self,
        ViewCollapse.self, ViewExpand.self, ViewLocate.self, ViewClose.self,
        Undo.self, Redo.self,
        TextParseItem.self, TextParseFilter.self,
        RemindersWatch.self, RemindersList.self, RemindersDismiss.self, RemindersSnooze.self,
        SyncNow.self,
    ]

    /// Every notification a client sends.
    public static let clientNotifications: [any NotificationMessage.Type] = [
        Initialized.self, Exit.self, CancelRequest.self, SetTrace.self,
    ]

    /// Every taskls notification the server sends (what `initialize` advertises).
    public static let serverNotifications: [any NotificationMessage.Type] = [
        ViewChanged.self, ViewClosed.self, ListsChanged.self, ReminderFired.self,
    ]

    /// The notifications of LSP itself the server sends.
    public static let lspServerNotifications: [any NotificationMessage.Type] = [
        Progress.self, LogMessage.self, ShowMessage.self,
    ]

    /// Every named schema: each message's params and result, and every type they refer to (with
    /// `TypeReference.named`), each once, in a stable order.
    public static let schemas: [TypeSchema] = {
        var all: [TypeSchema] = []
        var names: Set<String> = []
        func add(_ schema: TypeSchema) {
            guard names.insert(schema.name).inserted else { return }
            all.append(schema)
        }
        for request in requests {
            add(request.schema)
            add(request.resultSchema)
        }
        for notification in clientNotifications + serverNotifications + lspServerNotifications { add(notification.schema) }
        for value in values { add(value) }
        return all
    }()

    /// The schemas of the types messages are made of.
    private static let values: [TypeSchema] = [
        ListID.schema, ItemID.schema, ViewID.schema, Priority.schema, SmartGroup.schema, Sections.schema,
        SortField.schema, SortDirection.schema, Sort.schema, Filter.Completion.schema, Filter.schema, Window.schema,
        TaskList.schema, Item.schema, ItemExtra.schema, Row.schema, ItemRow.schema, HeaderRow.schema, Overview.schema, GroupSummary.schema,
        SmartListID.schema, SmartList.schema,
        ViewState.schema, ViewError.schema, EmptyReason.schema, WindowOperation.schema,
        WindowOperation.insertSchema, WindowOperation.removeSchema, WindowOperation.moveSchema,
        WindowOperation.updateSchema, WindowOperation.resetSchema, ViewSnapshotResult.schema, ViewVersion.schema,
        StoreState.schema, StoreErrorData.schema, StoreStatusResult.schema,
        Initialize.optionsSchema, Initialize.capabilitiesSchema, Initialize.windowCapabilitiesSchema,
        Trace.schema, ProgressToken.schema, ServerCapabilities.schema, ExperimentalCapabilities.schema, TasklsCapabilities.schema,
        ProgressValue.schema, ProgressValue.beginSchema, ProgressValue.reportSchema, ProgressValue.endSchema, MessageType.schema, ServerInfo.schema,
        ItemsMove.byViewSchema, ItemsMove.byIDsSchema, NullResult.schema, EmptyResult.schema,
        Repeat.schema, RepeatAnchor.schema, Occurrences.schema, Occurrence.schema, Occurrence.Outcome.schema,
        ItemTextFields.schema, TextSpan.schema, TextWarning.schema, TextPosition.schema, SpanKind.schema, WarningReason.schema,
        Alert.schema, PendingReminder.schema,
        ExchangeFormat.schema, ExchangeProblem.schema, ExchangeLoss.schema,
        SyncPhase.schema, SyncProgress.schema, ListSyncState.schema, SyncedList.schema,
    ]
}

extension RequestMessage {
    /// The schema of what the request answers.
    public static var resultSchema: TypeSchema { Result.schema }
}
