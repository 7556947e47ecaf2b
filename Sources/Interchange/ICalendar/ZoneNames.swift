// ZoneNames: the zone a TZID names: the calendar's own VTIMEZONE first, else the machine's zones by name, also for
// Mozilla-style global ids (`/mozilla.org/20050126_1/Europe/Berlin`) and Outlook's Windows names.

import Domain

extension ICalendarFormat {
    /// The zones one calendar's TZIDs name, each looked up once.
    struct ZoneNames {
        /// The calendar's VTIMEZONEs that taskls can read, by TZID.
        let defined: [String: DefinedZone]
        /// The machine's zones.
        let database: any ZoneDatabase
        private var found: [String: (any ZoneOffsets)?] = [:]

        /// The zones of a calendar whose VTIMEZONEs are `definitions`.
        init(definitions: [Component], database: any ZoneDatabase) {
            var defined: [String: DefinedZone] = [:]
            for component in definitions {
                guard let tzid = component.property("TZID")?.trimmedValue, defined[String(tzid)] == nil,
                      let zone = DefinedZone(component) else { continue }
                defined[String(tzid)] = zone
            }
            self.defined = defined
            self.database = database
        }

        /// The zone `tzid` names: the calendar's VTIMEZONE of that TZID, else the zone of that name on the machine,
        /// else (for a global id such as `/mozilla.org/20050126_1/Europe/Berlin`) the zone its last two or three
        /// parts name, else the IANA zone of a Windows name (`W. Europe Standard Time`); nil when none.
        mutating func zone(named tzid: String) -> (any ZoneOffsets)? {
            if let known = found[tzid] { return known }
            let zone = defined[tzid] ?? ICalendarFormat.databaseZone(named: tzid, in: database)
            found[tzid] = .some(zone)
            return zone
        }
    }

    /// The machine's zone a TZID names, by its name, its last parts, or its Windows name.
    static func databaseZone(named tzid: String, in database: any ZoneDatabase) -> (any ZoneOffsets)? {
        if let zone = database.zone(named: tzid) { return zone }
        let parts = tzid.split(separator: "/")
        for count in [3, 2] where count < parts.count {
            if let zone = database.zone(named: parts.suffix(count).joined(separator: "/")) { return zone }
        }
        if let name = windowsZoneNames[tzid] { return database.zone(named: name) }
        return nil
    }
}
