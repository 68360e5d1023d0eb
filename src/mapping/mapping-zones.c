#include "mapping-zones.h"

#include <string.h>

typedef struct {
	guint ids[TRACKER_MAX_USERS]; /* the users inside */
	guint n;
} Members;

struct _MappingZones {
	const Mapping *mapping;
	Members *members; /* per zone */
	GArray *changes;  /* MappingZoneChange, of the last update */
};

MappingZones *
mapping_zones_new(const Mapping *mapping, const MappingZones *previous)
{
	MappingZones *zones = g_new0(MappingZones, 1);

	zones->mapping = mapping;
	zones->members = g_new0(Members, MAX(1u, mapping->zones->len));
	zones->changes = g_array_new(FALSE, FALSE, sizeof(MappingZoneChange));
	for (guint z = 0; previous != NULL && z < mapping->zones->len; z++) {
		for (guint o = 0; o < previous->mapping->zones->len; o++) {
			if (strcmp(mapping_get_zone(mapping, z)->name,
			           mapping_get_zone(previous->mapping, o)->name) == 0)
				zones->members[z] = previous->members[o];
		}
	}
	return zones;
}

void
mapping_zones_free(MappingZones *zones)
{
	if (zones == NULL)
		return;
	g_free(zones->members);
	g_array_unref(zones->changes);
	g_free(zones);
}

static gboolean
mapping_zones_member(const Members *m, guint id)
{
	for (guint i = 0; i < m->n; i++) {
		if (m->ids[i] == id)
			return TRUE;
	}
	return FALSE;
}

static gboolean
mapping_zones_within(TrackerVec3 p, TrackerVec3 min, TrackerVec3 max, double margin)
{
	return p.x >= min.x - margin && p.x <= max.x + margin && p.y >= min.y - margin &&
	       p.y <= max.y + margin && p.z >= min.z - margin && p.z <= max.z + margin;
}

/* Whether @user is in @zone now, @was whether they were; @was again when
 * their point cannot be told. */
static gboolean
mapping_zones_inside(const MappingZone *zone, const TrackerUser *user,
                     const TrackerCameraPose *pose, gboolean was)
{
	const TrackerJoint *joint = &user->joints[zone->joint];
	TrackerVec3 p = joint->position;

	if (joint->confidence <= 0.0)
		return was;
	if (zone->space == MAPPING_ZONE_ROOM &&
	    (pose == NULL || !tracker_camera_pose_to_room(pose, joint->position, &p)))
		return was;
	return mapping_zones_within(p, zone->min, zone->max, was ? zone->margin : 0.0);
}

static void
mapping_zones_note(MappingZones *zones, guint zone, guint id, gboolean into)
{
	MappingZoneChange change = { zone, id, into };

	g_array_append_val(zones->changes, change);
}

/* Zone @z's users in @frame; the changes noted. */
static void
mapping_zones_update_one(MappingZones *zones, guint z, const TrackerFrame *frame,
                         const TrackerCameraPose *pose)
{
	const MappingZone *zone = mapping_get_zone(zones->mapping, z);
	Members *m = &zones->members[z], now = { { 0 }, 0 };

	for (guint i = 0; i < m->n; i++) {
		if (tracker_frame_find_user(frame, m->ids[i]) == NULL)
			mapping_zones_note(zones, z, m->ids[i], FALSE);
	}
	for (guint u = 0; u < frame->n_users && u < TRACKER_MAX_USERS; u++) {
		const TrackerUser *user = &frame->users[u];
		gboolean was = mapping_zones_member(m, user->id);
		gboolean is = mapping_zones_inside(zone, user, pose, was);

		if (is)
			now.ids[now.n++] = user->id;
		if (is != was)
			mapping_zones_note(zones, z, user->id, is);
	}
	*m = now;
}

void
mapping_zones_update(MappingZones *zones, const TrackerFrame *frame, const TrackerCameraPose *pose)
{
	g_array_set_size(zones->changes, 0);
	for (guint z = 0; z < zones->mapping->zones->len; z++)
		mapping_zones_update_one(zones, z, frame, pose);
}

const MappingZoneChange *
mapping_zones_changes(const MappingZones *zones, guint *n)
{
	*n = zones->changes->len;
	return (const MappingZoneChange *)(gpointer)zones->changes->data;
}

gboolean
mapping_zones_contains(const MappingZones *zones, guint zone, guint id)
{
	g_return_val_if_fail(zone < zones->mapping->zones->len, FALSE);

	return mapping_zones_member(&zones->members[zone], id);
}

guint
mapping_zones_count(const MappingZones *zones, guint zone)
{
	g_return_val_if_fail(zone < zones->mapping->zones->len, 0);

	return zones->members[zone].n;
}
