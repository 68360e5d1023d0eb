/* Who is in which [zone] of a mapping, frame after frame.
 *
 * Pure logic: the frame's users and the sensor's pose in, each zone's
 * users and this frame's comings and goings out. A user is in a zone while
 * their zone joint lies in its box; once in, they stay in until that joint
 * is the zone's margin outside it, so that a user standing on the edge
 * does not flicker in and out. A frame in which the joint is not found, or
 * a room zone's floor is not known, changes nothing; a user who leaves
 * the view leaves every zone. */
#pragma once

#include <glib.h>

#include "mapping.h"
#include "tracker/tracker-types.h"
#include "tracker/tracker.h"

typedef struct _MappingZones MappingZones;

typedef struct {
	guint zone;    /* index in Mapping.zones */
	guint user;    /* the user's id */
	gboolean into; /* came in; else went out */
} MappingZoneChange;

/**
 * mapping_zones_new:
 * The zones of @mapping, which must outlive them, all empty; with
 * @previous (the zones of the mapping this one replaces), each zone of the
 * same name starts with the users it had, so a reload announces nothing.
 */
MappingZones *mapping_zones_new(const Mapping *mapping, const MappingZones *previous);
void mapping_zones_free(MappingZones *zones);

/** mapping_zones_update: moves the zones on to @frame, seen from @pose. */
void mapping_zones_update(MappingZones *zones, const TrackerFrame *frame,
                          const TrackerCameraPose *pose);

/** mapping_zones_changes: the comings and goings of the last update, @n of them. */
const MappingZoneChange *mapping_zones_changes(const MappingZones *zones, guint *n);

/** mapping_zones_contains: whether user @id is in zone @zone. */
gboolean mapping_zones_contains(const MappingZones *zones, guint zone, guint id);

/** mapping_zones_count: how many users are in zone @zone. */
guint mapping_zones_count(const MappingZones *zones, guint zone);
