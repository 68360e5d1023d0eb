/* Fusion: the users of several sensors of one room as one set of users.
 *
 * Each sensor's tracker reports its users in its own camera space with
 * ids of its own. Fusion puts them all in the room's frame (room.h), takes
 * users of different sensors standing in one place to be one person, and
 * gives each person one id of its own that stays while any sensor sees
 * them: a person walking out of one sensor's view through the overlap
 * into another's keeps their id. Each joint is taken from the sensor that
 * sees it best (its confidence, and its distance, as depth noise grows
 * with it), averaged with the others that agree.
 *
 * Sensors are not in step, each on its own clock: frames are fused by
 * their times (on a clock all sensors share), not by the order they
 * arrive in. The fused users are given at the frames of the lead sensor,
 * the first of the room's that is still sending; every other sensor's
 * users are taken at that frame's time, between its frames either side
 * (or as of its last, when that is recent). A sensor that stops (a
 * Kinect unplugged) is left out once its last frame is ROOM_FUSION_STALE_US
 * old; its people stay with the same id for as long as another sensor
 * sees them. Pure logic: no clock, no I/O. */
#pragma once

#include <glib.h>

#include "room.h"
#include "tracker/tracker.h"

/* A sensor's users are used at most this far from the fused frame's time. */
#define ROOM_FUSION_MAX_AGE_US 100000
/* A sensor with no frame this long, while others send, is not the lead. */
#define ROOM_FUSION_STALE_US 300000
/* Users of two sensors whose trunks are this close in the room are one person. */
#define ROOM_FUSION_SAME_MM 450.0
/* ...and two sensors' views of one person this far apart are two people. */
#define ROOM_FUSION_APART_MM 800.0
/* A person no sensor reports any more is kept this long, for another
 * sensor to pick up where they were (ROOM_FUSION_PICK_UP_MM) with their id. */
#define ROOM_FUSION_HOLD_US    1000000
#define ROOM_FUSION_PICK_UP_MM 700.0

typedef struct _RoomFusion RoomFusion;

/** room_fusion_new: fusion for the sensors of @room, in its order (copied). */
RoomFusion *room_fusion_new(const Room *room);
void room_fusion_free(RoomFusion *fusion);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(RoomFusion, room_fusion_free)

/**
 * room_fusion_process:
 * Takes sensor @sensor's @frame (its users in its camera space, its
 * time_us on the shared clock). When @sensor is the lead, fills @out with
 * the fused users as of that time, in the room's frame (positions in mm;
 * u and v are in the image of the sensor the joint was taken from), and
 * returns TRUE. A frame not later than that sensor's last is left out.
 */
gboolean room_fusion_process(RoomFusion *fusion, guint sensor, const TrackerFrame *frame,
                             TrackerFrame *out);

/** room_fusion_lead: the sensor whose frames the fused users are given at now. */
guint room_fusion_lead(const RoomFusion *fusion);

/* A sensor that has sent no frame yet, for room_fusion_lead_of(). */
#define ROOM_FUSION_NO_FRAME G_MININT64

/**
 * room_fusion_lead_of:
 * The lead among @n sensors whose last frames came at @last_us
 * (ROOM_FUSION_NO_FRAME: none yet): the first whose last frame is at most
 * ROOM_FUSION_STALE_US older than the newest; 0 when none has sent one.
 */
guint room_fusion_lead_of(const gint64 *last_us, guint n);
