/// walcheck's engine: read-only inspection of SQLite / Core Data stores. (Filled in by the walcheck issue.)
public enum StoreInspection {}
