// LOCAL ONLY
extension ExchangeFormatName {
    public var format: any ExchangeFormat.Type {
        switch self {
        case .todotxt: TodoTxtFormat.self
        default: TodoTxtFormat.self
        }
    }
}
