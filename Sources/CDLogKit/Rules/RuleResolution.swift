import CDLogCore

/// How a rule whose patterns matched turns into a finding when its verdict comes from data rather than
/// from the rule itself (Rules/README.md, "Code tables").
public enum RuleResolution: String, CaseIterable, Sendable {
    /// The code tables decide: the most specific known (domain, code) of the entry gives the category,
    /// severity, title and advice; an entry with no known code is left to the next rule.
    case codes
    /// As `codes`, reading the tables' printed sentences too (`database is locked` → SQLite 5): a rule of
    /// its own whose patterns are those sentences, so the sentence search runs only on entries the
    /// prefilter found one in.
    case messages
    /// As `codes`, reading the codes' own names (CloudKit's case names, `zoneNotFound`; Core Data's error
    /// constants, `NSMigrationMissingSourceModelError`): a rule of its own whose patterns are the names, so
    /// the names' search runs only on entries the prefilter found one in.
    case names
    /// The last resort for an error-level entry that names Core Data, CloudKit, SwiftData or SQLite:
    /// an "Unrecognised … error" finding whose category comes from the markers it carries.
    case fallback
    /// The last resort for an entry that names Core Data, CloudKit, SwiftData, SQLite or a persistence
    /// library and reports no failure: an activity finding at the severity its activity marker gives
    /// (a sync library importing, a store loading, a history token handed on).
    case activity
}
