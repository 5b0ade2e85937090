/// The net effect of consecutive commits: what changed between the version before the first
/// entry and the version of the last one, per class and object.
///
/// Per object: inserted then deleted vanishes; inserted then modified stays inserted;
/// modified then deleted is deleted; deleted then inserted again (the same key, as with an
/// integer primary key) is modified in every property, because its values are not known.
/// A `cleared` class forgets what came before the clear: the objects listed after it are
/// those inserted (and modified or deleted) after the last clear, as in one entry.
package enum NetChanges {
    /// Folds `entries` (oldest first, consecutive) into one change set. `schema` names the
    /// properties a replaced object is modified in.
    package static func fold(_ entries: [HistoryEntry], schema: FileSchema) -> ChangeSet {
        var states: [String: ClassState] = [:]
        for entry in entries {
            for (name, changes) in entry.changes.classes {
                states[name, default: ClassState()].apply(changes, allProperties: allProperties(schema.classes[name]))
            }
        }
        var result = ChangeSet()
        for (name, state) in states {
            let changes = state.changes
            if !changes.isEmpty { result.classes[name] = changes }
        }
        return result
    }

    private static func allProperties(_ c: ClassSchema?) -> UInt64 {
        guard let c else { return .max }
        return c.properties.reduce(0) { $0 | ClassChanges.bit($1.id) }
    }

    private enum ObjectState {
        case inserted
        case deleted
        case modified(UInt64)
    }

    private struct ClassState {
        var cleared = false
        var objects: [ObjectKey: ObjectState] = [:]

        mutating func apply(_ c: ClassChanges, allProperties: UInt64) {
            if c.cleared {
                cleared = true
                objects = [:]
            }
            for key in c.deleted {
                switch objects[key] {
                case .inserted: objects[key] = nil
                default: objects[key] = .deleted
                }
            }
            for key in c.inserted {
                if case .deleted = objects[key] {
                    objects[key] = .modified(allProperties)
                } else {
                    objects[key] = .inserted
                }
            }
            for (key, mask) in c.modified {
                switch objects[key] {
                case .inserted: break
                case .modified(let m): objects[key] = .modified(m | mask)
                case .deleted, nil: objects[key] = .modified(mask)
                }
            }
        }

        var changes: ClassChanges {
            var inserted: [ObjectKey] = [], deleted: [ObjectKey] = [], modified: [ObjectKey: UInt64] = [:]
            for (key, state) in objects {
                switch state {
                case .inserted: inserted.append(key)
                case .deleted: deleted.append(key)
                case .modified(let mask): modified[key] = mask
                }
            }
            return ClassChanges(inserted: inserted.sorted(), deleted: deleted.sorted(), modified: modified, cleared: cleared)
        }
    }
}
