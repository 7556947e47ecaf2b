// Zones: the machine's time zones (Foundation's database) as the interchange reads and writes them.

import Domain
import Foundation
import Interchange
import SyncEngine

/// A zone of Foundation's database.
struct FoundationZone: ZoneOffsets, Sendable {
    let zone: TimeZone

    func offsetSeconds(at instant: Timestamp) -> Int {
        zone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(instant.milliseconds) / 1000))
    }
}

/// The machine's zones by IANA name.
struct FoundationZones: ZoneDatabase {
    func zone(named name: String) -> (any ZoneOffsets & Sendable)? {
        TimeZone(identifier: name).map(FoundationZone.init)
    }
}

/// The task text of this machine's zone.
func machineTaskText() -> TaskText {
    let zone = TimeZone.current
    return TaskText(zones: FoundationZones(), localZone: FoundationZone(zone: zone),
                    localZoneName: zone.identifier == "GMT" ? nil : zone.identifier)
}

/// The time now.
@Sendable func wallClock() -> Timestamp {
    Timestamp(milliseconds: Int64((Date().timeIntervalSince1970 * 1000).rounded()))
}
