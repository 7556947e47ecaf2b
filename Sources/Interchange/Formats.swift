// Formats: each format's reader and writer by name.

extension ExchangeFormatName {
    /// The format's reader and writer.
    public var format: any ExchangeFormat.Type {
        switch self {
        case .taskwarrior: TaskwarriorFormat.self
        case .todotxt: TodoTxtFormat.self
        case .ics: ICalendarFormat.self
        case .json: BackupFormat.self
        }
    }
}
