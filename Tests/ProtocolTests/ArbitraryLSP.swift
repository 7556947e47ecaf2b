/// Seeded random values of LSP's own messages and of the capabilities: `$/setTrace`, `$/progress`,
/// `window/logMessage`, `window/showMessage`, and `ServerCapabilities` with and without `experimental`.

import TasklsProtocol
import Wire

extension MessageType: Arbitrary {}

extension ProgressToken: Arbitrary {
    static func arbitrary(_ random: inout Randomness) -> ProgressToken {
        random.bool() ? .integer(Int64(random.anyInt())) : .string(random.string())
    }
}

extension SetTrace: Arbitrary {
    static func arbitrary(_ random: inout Randomness) -> SetTrace { SetTrace(value: .arbitrary(&random)) }
}

extension ProgressValue: Arbitrary {
    static func arbitrary(_ random: inout Randomness) -> ProgressValue {
        switch random.int(0...2) {
        case 0: .begin(title: random.string(), message: random.maybe { $0.string() })
        case 1: .report(percentage: random.int(0...100), message: random.maybe { $0.string() })
        default: .end(message: random.maybe { $0.string() })
        }
    }
}

extension Progress: Arbitrary {
    static func arbitrary(_ random: inout Randomness) -> Progress { Progress(token: .arbitrary(&random), value: .arbitrary(&random)) }
}

extension WindowMessage: Arbitrary {
    static func arbitrary(_ random: inout Randomness) -> WindowMessage { WindowMessage(type: .arbitrary(&random), message: random.string()) }
}

extension TasklsCapabilities: Arbitrary {
    static func arbitrary(_ random: inout Randomness) -> TasklsCapabilities {
        TasklsCapabilities(protocolVersion: random.anyInt(), requests: random.strings(), notifications: random.strings())
    }
}

extension ExperimentalCapabilities: Arbitrary {
    static func arbitrary(_ random: inout Randomness) -> ExperimentalCapabilities { ExperimentalCapabilities(taskls: .arbitrary(&random)) }
}

extension ServerCapabilities: Arbitrary {
    /// As the server writes them (`experimental` equal to `taskls`), or with `experimental` absent or different,
    /// which a reader accepts.
    static func arbitrary(_ random: inout Randomness) -> ServerCapabilities {
        var capabilities = ServerCapabilities(taskls: .arbitrary(&random))
        switch random.int(0...2) {
        case 0: break
        case 1: capabilities.experimental = nil
        default: capabilities.experimental = .arbitrary(&random)
        }
        return capabilities
    }
}

extension ServerInfo: Arbitrary {
    static func arbitrary(_ random: inout Randomness) -> ServerInfo { ServerInfo(name: random.string(), version: random.maybe { $0.string() }) }
}
