// SyncSettings: the accounts a store syncs with and which list goes with which calendar, as kept in the store's
// directory (`sync-accounts.json`). No password is ever kept: only how to get one at sync time.

import Wire

/// How sync gets an account's password, at sync time and never earlier.
public enum PasswordSource: Hashable, Sendable {
    /// The first line of what a shell command prints (`pass show dav`, `secret-tool lookup …`).
    case command(String)
    /// The first line of a file (which should be readable by the user alone).
    case file(String)
}

/// A CalDAV account.
public struct SyncAccountSettings: Hashable, Sendable {
    /// The account's name (unique in the store; `sync add --name`, else the server's host).
    public var name: String
    /// The URL the user gave.
    public var url: String
    public var user: String
    public var password: PasswordSource
    /// The calendar home found at `sync add` (where new calendars are made).
    public var home: String
    /// Every list and every task calendar of the account are synced: at each sync a list without a calendar gets a
    /// new one, and a task calendar without a list gets a new list (`sync share --all`).
    public var sharesAll: Bool

    public init(name: String, url: String, user: String, password: PasswordSource, home: String, sharesAll: Bool = false) {
        self.name = name
        self.url = url
        self.user = user
        self.password = password
        self.home = home
        self.sharesAll = sharesAll
    }
}

/// A list synced with a calendar.
public struct SyncShare: Hashable, Sendable {
    /// The list's id in the store (`ListID.rawValue`).
    public var list: UInt64
    /// The account's name.
    public var account: String
    /// The calendar's canonical href.
    public var calendar: String

    public init(list: UInt64, account: String, calendar: String) {
        self.list = list
        self.account = account
        self.calendar = calendar
    }
}

/// Every account and share of a store.
public struct SyncSettings: Hashable, Sendable {
    public var accounts: [SyncAccountSettings] = []
    public var shares: [SyncShare] = []

    public init(accounts: [SyncAccountSettings] = [], shares: [SyncShare] = []) {
        self.accounts = accounts
        self.shares = shares
    }

    /// The side file the settings are kept in.
    public static let fileName = "sync-accounts.json"

    public func account(named name: String) -> SyncAccountSettings? { accounts.first { $0.name == name } }

    public var json: JSON {
        let accounts = accounts.map { account -> JSON in
            var object: JSONObject = ["name": .string(account.name), "url": .string(account.url), "user": .string(account.user),
                                      "home": .string(account.home), "sharesAll": .bool(account.sharesAll)]
            switch account.password {
            case .command(let command): object.members.append(("passwordCommand", .string(command)))
            case .file(let path): object.members.append(("passwordFile", .string(path)))
            }
            return .object(object)
        }
        let shares = shares.map { share -> JSON in
            ["list": .integer(Int64(share.list)), "account": .string(share.account), "calendar": .string(share.calendar)]
        }
        return ["accounts": .array(accounts), "shares": .array(shares)]
    }

    /// Reads what `json` wrote; the error names the member that is wrong.
    public init(json: JSON) throws(SyncError) {
        guard case .array(let accountValues)? = json["accounts"], case .array(let shareValues)? = json["shares"] else {
            throw SyncError("accounts and shares: arrays are wanted")
        }
        for (index, value) in accountValues.enumerated() {
            guard case .string(let name)? = value["name"], case .string(let url)? = value["url"],
                  case .string(let user)? = value["user"], case .string(let home)? = value["home"] else {
                throw SyncError("accounts[\(index)]: name, url, user and home are wanted, each a string")
            }
            let password: PasswordSource
            if case .string(let command)? = value["passwordCommand"] {
                password = .command(command)
            } else if case .string(let path)? = value["passwordFile"] {
                password = .file(path)
            } else {
                throw SyncError("accounts[\(index)]: passwordCommand or passwordFile is wanted")
            }
            var sharesAll = false
            if case .bool(let value)? = value["sharesAll"] { sharesAll = value }
            accounts.append(SyncAccountSettings(name: name, url: url, user: user, password: password, home: home, sharesAll: sharesAll))
        }
        for (index, value) in shareValues.enumerated() {
            guard case .integer(let list)? = value["list"], list > 0, case .string(let account)? = value["account"],
                  case .string(let calendar)? = value["calendar"] else {
                throw SyncError("shares[\(index)]: list (a positive integer), account and calendar are wanted")
            }
            shares.append(SyncShare(list: UInt64(list), account: account, calendar: calendar))
        }
    }
}
