/// The names Domain and TasklsProtocol both define mean Domain's in the server: a declaration of
/// the current module shadows imported ones, so a file that imports both writes `Item` for the
/// domain's item and `TasklsProtocol.Item` for the wire's.

import Domain

typealias EmptyReason = Domain.EmptyReason
typealias Filter = Domain.Filter
typealias GroupSummary = Domain.GroupSummary
typealias Item = Domain.Item
typealias ItemID = Domain.ItemID
typealias ListID = Domain.ListID
typealias Overview = Domain.Overview
typealias Priority = Domain.Priority
typealias Row = Domain.Row
typealias SmartGroup = Domain.SmartGroup
typealias SmartList = Domain.SmartList
typealias SmartListID = Domain.SmartListID
typealias Sort = Domain.Sort
typealias SortDirection = Domain.SortDirection
typealias SortField = Domain.SortField
typealias TaskList = Domain.TaskList
typealias ViewID = Domain.ViewID
typealias ViewSnapshot = Domain.ViewSnapshot
typealias ViewSource = Domain.ViewSource
typealias ViewState = Domain.ViewState
typealias Window = Domain.Window
typealias WindowOperation = Domain.WindowOperation
