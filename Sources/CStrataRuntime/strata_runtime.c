#include "strata_runtime.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

// The runtime's per-image section table (SwiftShims `MetadataSections`), as far as the type
// metadata records; its layout up to there is the same in every version.
typedef struct {
    uintptr_t start;
    size_t length;
} section_range;

typedef struct {
    uintptr_t version;
    uintptr_t reserved;
    const void *next;
    const void *previous;
    section_range protocols;
    section_range protocol_conformances;
    section_range type_metadata;
} metadata_sections;

extern void swift_enumerateAllMetadataSections(bool (*body)(const metadata_sections *sections, void *context),
                                               void *context);

// A metadata access function's result and calling convention (swiftcc).
typedef struct {
    const void *metadata;
    size_t state;
} metadata_response;
typedef metadata_response (*metadata_accessor)(size_t request) __attribute__((swiftcall));

// Context descriptor flags: the kind in the low five bits, then whether it is generic.
enum { kind_mask = 0x1f, kind_class = 16, flag_generic = 0x80 };

// A class context descriptor: flags, parent, name, access function, fields, superclass type;
// each after the flags a 32-bit offset from its own address (0: none).
typedef struct {
    uint32_t flags;
    int32_t parent;
    int32_t name;
    int32_t access_function;
    int32_t fields;
    int32_t superclass_type;
} class_descriptor;

// The metadata accessors of the classes found, collected while the runtime walks its images
// and called only after: an accessor may initialise metadata, which may look records up again.
typedef struct {
    metadata_accessor *accessors;
    size_t count;
    size_t capacity;
    bool failed;
} accessor_list;

static const void *relative_target(const int32_t *field) {
    return *field == 0 ? NULL : (const char *)field + *field;
}

// A type metadata record is a 32-bit offset to a context descriptor whose low two bits say how
// to read it: 0 the descriptor itself, 1 a pointer to it; 2 and 3 name Objective-C classes.
static const class_descriptor *record_descriptor(const int32_t *record) {
    int32_t kind = *record & 3;
    const char *target = (const char *)record + (*record & ~3);
    if (kind == 0) return (const class_descriptor *)target;
    if (kind == 1) return *(const class_descriptor *const *)target;
    return NULL;
}

static void append(accessor_list *list, metadata_accessor accessor) {
    if (list->count == list->capacity) {
        size_t capacity = list->capacity ? list->capacity * 2 : 256;
        metadata_accessor *grown = realloc(list->accessors, capacity * sizeof *grown);
        if (grown == NULL) {
            list->failed = true;
            return;
        }
        list->accessors = grown;
        list->capacity = capacity;
    }
    list->accessors[list->count++] = accessor;
}

static bool visit_image(const metadata_sections *sections, void *context) {
    accessor_list *list = context;
    const int32_t *record = (const int32_t *)sections->type_metadata.start;
    const int32_t *end = record + sections->type_metadata.length / sizeof(int32_t);
    for (; record < end && !list->failed; record++) {
        const class_descriptor *descriptor = record_descriptor(record);
        if (descriptor == NULL || (descriptor->flags & kind_mask) != kind_class) continue;
        if ((descriptor->flags & flag_generic) || descriptor->superclass_type == 0) continue;
        metadata_accessor accessor = (metadata_accessor)relative_target(&descriptor->access_function);
        if (accessor != NULL) append(list, accessor);
    }
    return !list->failed;
}

int strata_enumerate_classes(void (*found)(const void *metadata, void *context), void *context) {
    accessor_list list = {NULL, 0, 0, false};
    swift_enumerateAllMetadataSections(visit_image, &list);
    for (size_t i = 0; i < list.count && !list.failed; i++) {
        metadata_response response = list.accessors[i](0);
        if (response.metadata != NULL) found(response.metadata, context);
    }
    free(list.accessors);
    return list.failed ? -1 : 0;
}
