// The value types of `StrataValues` (`ObjectId`, with its `ValueParsingError`) are part of
// Strata's public API, as they are of RealmSwift's: `import Strata` alone must let a model
// declare, extend and query them. The module is re-exported whole rather than through one
// `public typealias` per type, so that every public symbol of it (types, their errors, and
// what later value types add) reaches users without a list here to keep in step, and
// diagnostics and extensions see the one real type.
@_exported import StrataValues
