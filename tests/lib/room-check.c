#include "room-check.h"

#include <math.h>
#include <string.h>

#include "score.h"
#include "tracker/tracker-camera.h"

/* A torso joint is the spine's, half the trunk's depth behind the chest:
 * for a big adult in a coat, turned a little, 200 mm (score_inside's
 * 150 mm is a head's). */
#define ROOM_CHECK_TORSO_BEHIND_MM 200.0

/* The joints that place a skeleton on a person. */
static const TrackerJointId room_check_anchors[] = {
	TRACKER_JOINT_TORSO,
	TRACKER_JOINT_NECK,
	TRACKER_JOINT_HEAD,
};

typedef enum {
	ROOM_CHECK_ON,     /* inside the box, on the surface */
	ROOM_CHECK_BEYOND, /* beyond a border the box runs off, or left out there */
	ROOM_CHECK_NONE,   /* a head not reported */
	ROOM_CHECK_OFF,    /* anywhere else */
} RoomCheckPlace;

/* How a user fits a person: anchors on them, off them, the first one off. */
typedef struct {
	guint on, off;
	char *why;
} RoomCheckFit;

static gboolean
room_check_runs_off(const MarksPerson *p)
{
	return p->u0 == 0 || p->v0 == 0 || p->u1 == TRACKER_DEPTH_WIDTH - 1 ||
	       p->v1 == TRACKER_DEPTH_HEIGHT - 1;
}

/* A pixel beyond the image: on @p when every border it is beyond is one
 * the box runs off, and it lies within the box along that border. */
static gboolean
room_check_beyond(const MarksPerson *p, int u, int v)
{
	if ((u < 0 && p->u0 != 0) || (u >= TRACKER_DEPTH_WIDTH && p->u1 != TRACKER_DEPTH_WIDTH - 1))
		return FALSE;
	if ((v < 0 && p->v0 != 0) ||
	    (v >= TRACKER_DEPTH_HEIGHT && p->v1 != TRACKER_DEPTH_HEIGHT - 1))
		return FALSE;
	u = CLAMP(u, 0, TRACKER_DEPTH_WIDTH - 1);
	v = CLAMP(v, 0, TRACKER_DEPTH_HEIGHT - 1);
	return u >= p->u0 && u <= p->u1 && v >= p->v0 && v <= p->v1;
}

/* Where a reported joint, seen at pixel (@u, @v), lies inside the image. */
static RoomCheckPlace
room_check_surface(const guint16 *mm, TrackerJointId id, const TrackerJoint *seen,
                   const MarksPerson *p, int u, int v, char **why)
{
	double behind;

	if (u < p->u0 || u > p->u1 || v < p->v0 || v > p->v1) {
		*why = g_strdup_printf("at (%d, %d), outside the box", u, v);
		return ROOM_CHECK_OFF;
	}
	if (score_inside(mm, seen, &behind) ||
	    (id == TRACKER_JOINT_TORSO && mm[v * TRACKER_DEPTH_WIDTH + u] != 0 && behind > 0.0 &&
	     behind <= ROOM_CHECK_TORSO_BEHIND_MM))
		return ROOM_CHECK_ON;
	if (mm[v * TRACKER_DEPTH_WIDTH + u] == 0)
		*why = g_strdup_printf("at (%d, %d), on no depth reading", u, v);
	else
		*why = g_strdup_printf("%.0f mm %s the surface", fabs(behind),
		                       behind > 0.0 ? "behind" : "in front of");
	return ROOM_CHECK_OFF;
}

/* Where @joint lies against @p; for ROOM_CHECK_OFF, @why says why. The
 * pixel is the joint's position projected, as the joint may lie beyond
 * the image. */
static RoomCheckPlace
room_check_joint(const guint16 *mm, TrackerJointId id, const TrackerJoint *joint,
                 const MarksPerson *p, char **why)
{
	TrackerCamera camera;
	TrackerJoint seen = *joint;
	int u, v;

	if (joint->confidence <= 0.0 && id == TRACKER_JOINT_HEAD)
		return ROOM_CHECK_NONE;
	if (joint->confidence <= 0.0) {
		*why = g_strdup("not reported");
		return room_check_runs_off(p) ? ROOM_CHECK_BEYOND : ROOM_CHECK_OFF;
	}
	tracker_camera_init_kinect(&camera);
	if (!tracker_camera_project(&camera, joint->position, &seen.u, &seen.v)) {
		*why = g_strdup("behind the camera");
		return ROOM_CHECK_OFF;
	}
	u = (int)floor(seen.u + 0.5);
	v = (int)floor(seen.v + 0.5);
	if (u >= 0 && v >= 0 && u < TRACKER_DEPTH_WIDTH && v < TRACKER_DEPTH_HEIGHT)
		return room_check_surface(mm, id, &seen, p, u, v, why);
	*why = g_strdup_printf("at (%d, %d), beyond the image", u, v);
	return room_check_beyond(p, u, v) ? ROOM_CHECK_BEYOND : ROOM_CHECK_OFF;
}

static void
room_check_fit(const guint16 *mm, const TrackerUser *user, const MarksPerson *p, RoomCheckFit *fit)
{
	memset(fit, 0, sizeof(*fit));
	for (guint i = 0; i < G_N_ELEMENTS(room_check_anchors); i++) {
		TrackerJointId id = room_check_anchors[i];
		g_autofree char *why = NULL;
		RoomCheckPlace place = room_check_joint(mm, id, &user->joints[id], p, &why);

		fit->on += place == ROOM_CHECK_ON;
		fit->off += place == ROOM_CHECK_OFF;
		if (place == ROOM_CHECK_OFF && fit->why == NULL)
			fit->why = g_strdup_printf("%s %s", tracker_joint_name(id), why);
	}
	if (fit->off == 0 && fit->on == 0) {
		fit->off = 1;
		fit->why = g_strdup("torso, neck and head all beyond the image");
	}
}

/* Kuhn's augmenting path: pairs user @u, moving earlier pairs if need be. */
static gboolean
room_check_augment(RoomCheck *check, gboolean (*fits)[MARKS_MAX_PEOPLE], guint u, gboolean *seen)
{
	for (guint p = 0; p < check->n_people; p++) {
		if (!fits[u][p] || seen[p])
			continue;
		seen[p] = TRUE;
		if (check->user_of[p] < 0 ||
		    room_check_augment(check, fits, (guint)check->user_of[p], seen)) {
			check->user_of[p] = (int)u;
			check->person_of[u] = (int)p;
			return TRUE;
		}
	}
	return FALSE;
}

/* Why user @u is on no person: the reason against the person it fits
 * best, or the person it is on and who has it. */
static char *
room_check_why(const RoomCheck *check, RoomCheckFit *fits, const gboolean *on,
               const MarksPerson *const *people)
{
	guint best = 0;

	for (guint p = 0; p < check->n_people; p++) {
		if (on[p])
			return g_strdup_printf("on person %u, paired with user %d",
			                       people[p]->person, check->user_of[p] + 1);
		if (fits[p].off < fits[best].off ||
		    (fits[p].off == fits[best].off && fits[p].on > fits[best].on))
			best = p;
	}
	if (check->n_people == 0)
		return g_strdup("nobody is marked");
	return g_strdup_printf("on no person; nearest person %u: %s", people[best]->person,
	                       fits[best].why);
}

void
room_check_frame(RoomCheck *check, const guint16 *mm, const TrackerFrame *frame,
                 const MarksPerson *const *people, guint n_people)
{
	RoomCheckFit fit[TRACKER_MAX_USERS][MARKS_MAX_PEOPLE];
	gboolean on[TRACKER_MAX_USERS][MARKS_MAX_PEOPLE];

	memset(check, 0, sizeof(*check));
	check->n_users = frame->n_users;
	check->n_people = MIN(n_people, MARKS_MAX_PEOPLE);
	memset(check->person_of, -1, sizeof(check->person_of));
	memset(check->user_of, -1, sizeof(check->user_of));
	for (guint u = 0; u < check->n_users; u++) {
		for (guint p = 0; p < check->n_people; p++) {
			room_check_fit(mm, &frame->users[u], people[p], &fit[u][p]);
			on[u][p] = fit[u][p].off == 0;
		}
	}
	for (guint u = 0; u < check->n_users; u++) {
		gboolean seen[MARKS_MAX_PEOPLE] = { FALSE };

		room_check_augment(check, on, u, seen);
	}
	for (guint u = 0; u < check->n_users; u++) {
		if (check->person_of[u] < 0)
			check->why[u] = room_check_why(check, fit[u], on[u], people);
		for (guint p = 0; p < check->n_people; p++)
			g_free(fit[u][p].why);
	}
}

void
room_check_clear(RoomCheck *check)
{
	for (guint u = 0; u < TRACKER_MAX_USERS; u++)
		g_clear_pointer(&check->why[u], g_free);
}

guint
room_check_paired(const RoomCheck *check)
{
	guint n = 0;

	for (guint u = 0; u < check->n_users; u++)
		n += check->person_of[u] >= 0;
	return n;
}

gboolean
room_check_passed(const RoomCheck *check)
{
	return check->n_users == check->n_people && room_check_paired(check) == check->n_people;
}

/* How far the user's head is from the head marked, in pixels. */
static void
room_check_head(GString *out, const TrackerUser *user, const MarksPerson *p)
{
	TrackerCamera camera;
	double u, v;

	tracker_camera_init_kinect(&camera);
	if (!p->has_head || user->joints[TRACKER_JOINT_HEAD].confidence <= 0.0 ||
	    !tracker_camera_project(&camera, user->joints[TRACKER_JOINT_HEAD].position, &u, &v))
		return;
	g_string_append_printf(out, " (head %.0f px from the mark)",
	                       hypot(u - p->head_u, v - p->head_v));
}

char *
room_check_describe(const RoomCheck *check, const TrackerFrame *frame,
                    const MarksPerson *const *people, const char *indent)
{
	GString *out = g_string_new(NULL);

	for (guint u = 0; u < check->n_users; u++) {
		int p = check->person_of[u];

		g_string_append_printf(out, "%suser %u (id %u): ", indent, u + 1,
		                       frame->users[u].id);
		if (p < 0) {
			g_string_append_printf(out, "%s\n", check->why[u]);
			continue;
		}
		g_string_append_printf(out, "on person %u", people[p]->person);
		room_check_head(out, &frame->users[u], people[p]);
		g_string_append_c(out, '\n');
	}
	for (guint p = 0; p < check->n_people; p++) {
		if (check->user_of[p] < 0)
			g_string_append_printf(out, "%sperson %u: no user\n", indent,
			                       people[p]->person);
	}
	return g_string_free(out, FALSE);
}
