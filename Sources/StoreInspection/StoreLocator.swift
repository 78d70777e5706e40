import CDLogCore

/// Turns the PATH argument into store file sets.
///
/// Contract: a regular file (or a symlink to one) is one store, whatever its name; companions are
/// looked up beside the symlink's *target*, as SQLite's unix VFS does. A folder yields every regular
/// file in it that starts with the SQLite header and is not itself a `-wal`/`-shm`/`-journal`
/// companion, sorted by name. A companion that is a folder, FIFO, device or socket is never opened, and
/// a symlinked companion is read only when its target is a regular file in the store's own folder (or
/// `followSymlinks` is set): `StoreFiles.companionNotes` says which and why. Throws `ToolFailure` (one line) for a missing path, a dangling symlink,
/// a non-regular file, an unreadable folder or a folder without any store. Nothing is opened for
/// writing.
public enum StoreLocator {
    static let companionSuffixes = ["-wal", "-shm", "-journal"]

    public static func locate(_ path: String, followSymlinks: Bool = false) throws -> [StoreFiles] {
        guard let link = try FileStatus.lstatus(path) else {
            throw ToolFailure("\(path): no such file or folder")
        }
        guard let target = try FileStatus.status(path) else {
            throw ToolFailure("\(path) is a symlink whose target does not exist")
        }
        _ = link
        switch target.kind {
        case .regular:
            // A companion given instead of its database: say which file to give.
            for suffix in companionSuffixes where path.hasSuffix(suffix) && path.count > suffix.count {
                let database = String(path.dropLast(suffix.count))
                if (try? isSQLiteDatabase(database)) == true {
                    throw ToolFailure("\(path) is the \(suffix) of \(database): give the database file (walcheck \(database))")
                }
                if (try? FileStatus.status(database)) == nil, (try? isSQLiteDatabase(path)) != true {
                    throw ToolFailure("\(path) is a \(suffix) file without its database (\(database) is missing): walcheck reads a store through its database file")
                }
            }
            return [try files(for: path, followSymlinks: followSymlinks)]
        case .directory:
            let names = try directoryEntries(path)
            let nameSet = Set(names)
            var stores: [StoreFiles] = []
            for name in names {
                if companionSuffixes.contains(where: { name.hasSuffix($0) && nameSet.contains(String(name.dropLast($0.count))) }) {
                    continue
                }
                let full = joinPath(path, name)
                guard (try? isSQLiteDatabase(full)) == true else { continue }
                stores.append(try files(for: full, followSymlinks: followSymlinks))
            }
            if stores.isEmpty {
                // Stores one level down (an app container's Library/Application Support, a .xcappdata copy).
                var below: [String] = []
                for name in names where below.count < 3 {
                    let folder = joinPath(path, name)
                    guard (try? FileStatus.status(folder))?.kind == .directory,
                          let inner = try? directoryEntries(folder) else { continue }
                    for file in inner where below.count < 3 && (try? isSQLiteDatabase(joinPath(folder, file))) == true {
                        below.append(joinPath(folder, file))
                    }
                }
                if !below.isEmpty {
                    throw ToolFailure("\(path): no SQLite store directly in this folder, but sub-folders hold some (\(below.joined(separator: ", "))): give one of them or its folder")
                }
                throw ToolFailure("\(path): no SQLite store found in this folder")
            }
            return stores
        default:
            throw ToolFailure("\(path) is not a regular file or folder")
        }
    }

    /// A regular file that starts with SQLite's magic (not a directory, FIFO or device: never opened).
    static func isSQLiteDatabase(_ path: String) throws -> Bool {
        guard let st = try FileStatus.status(path), st.kind == .regular, st.size >= 16 else { return false }
        return try ReadOnlyFile(path: path).read(at: 0, count: 16) == DatabaseHeader.magic
    }

    /// The companions of one main database file.
    static func files(for database: String, followSymlinks: Bool = false) throws -> StoreFiles {
        let resolved = resolvedPath(database) ?? database
        let st = try FileStatus.lstatus(database)
        let base = st?.kind == .symlink ? resolved : database
        let folder = resolvedPath(parentDirectory(base)) ?? parentDirectory(base)
        var notes: [CompanionNote] = []
        func existing(_ suffix: String) throws -> String? {
            let path = base + suffix
            guard let link = try FileStatus.lstatus(path) else { return nil }
            switch link.kind {
            case .regular:
                return path
            case .symlink:
                let target = resolvedPath(path)
                let targetStatus = try FileStatus.status(path)
                guard let target, let targetStatus else {
                    notes.append(CompanionNote(path: path, suffix: suffix, what: "a symlink whose target does not exist", read: false))
                    return nil
                }
                guard targetStatus.kind == .regular else {
                    notes.append(CompanionNote(path: path, suffix: suffix, what: "a symlink to \(target), which is \(targetStatus.kind.described)", read: false))
                    return nil
                }
                let inside = parentDirectory(target) == folder
                let read = inside || followSymlinks
                let place = inside ? "in the store's folder" : "outside the store's folder"
                notes.append(CompanionNote(path: path, suffix: suffix, what: "a symlink to \(target) (\(place))",
                                           leavesFolder: !inside, read: read))
                return read ? path : nil
            default:
                notes.append(CompanionNote(path: path, suffix: suffix, what: link.kind.described, read: false))
                return nil
            }
        }
        var files = StoreFiles(database: database, resolvedDatabase: base, wal: try existing("-wal"),
                               walIndex: try existing("-shm"), journal: try existing("-journal"))
        files.companionNotes = notes
        return files
    }
}
