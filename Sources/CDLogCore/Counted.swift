/// A count and its noun, the noun singular for exactly one: `counted(1, "entry", "entries")` is "1 entry",
/// `counted(2, "entry", "entries")` "2 entries". `number` formats the count (default: plain digits).
public func counted(_ count: Int, _ singular: String, _ plural: String, number: (Int) -> String = { String($0) }) -> String {
    number(count) + " " + (count == 1 ? singular : plural)
}
