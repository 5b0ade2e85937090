// CRC32C (Castagnoli), the checksum of every record Strata seals (docs/FILE-FORMAT.md,
// "Checksums"): the SSE4.2 `crc32` instruction where the processor has it, a table otherwise.
#ifndef STRATA_CHECKSUM_H
#define STRATA_CHECKSUM_H

#include <stddef.h>
#include <stdint.h>

/// Continues the CRC32C `crc` (0 to start) over `count` bytes at `bytes`; returns the new
/// CRC. `strata_crc32c(strata_crc32c(0, a, n), b, m)` is the CRC of `a` followed by `b`.
uint32_t strata_crc32c(uint32_t crc, const void *bytes, size_t count);

/// The CRC32C `seed` continued over `key`, then `body`: a stored record's seal, in one call.
uint32_t strata_seal_crc(uint32_t seed, const void *key, size_t key_count, const void *body, size_t body_count);

/// The same CRC computed with the table alone (for tests comparing both paths).
uint32_t strata_crc32c_portable(uint32_t crc, const void *bytes, size_t count);

#endif
