/// Passed to `Realm.Configuration.migrationBlock` when a file's schema version is older than
/// the configuration's. Opening a file whose stored schema differs from the code's currently
/// throws `.schemaMismatch` listing each difference; migration blocks are not run yet.
public final class Migration {
    private init() {}
}
