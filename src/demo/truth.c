#include "truth.h"

#include <string.h>

/* What a perfect tracker makes of the hand on @side: its state when the
 * scene gives it one and the hand is seen, unknown otherwise. */
static TrackerHand
truth_hand(const DemoTruthPerson *p, int side)
{
	TrackerHand hand = { TRACKER_HAND_UNKNOWN, 0.0 };

	if (!p->hand_seen[side])
		return hand;
	switch (p->hands[side]) {
	case DEMO_HAND_OPEN:
		hand.state = TRACKER_HAND_OPEN;
		hand.confidence = 1.0;
		break;
	case DEMO_HAND_CLOSED:
		hand.state = TRACKER_HAND_CLOSED;
		hand.confidence = 1.0;
		break;
	case DEMO_HAND_RELAXED:
	default:
		break;
	}
	return hand;
}

static void
truth_person_to_user(const DemoTruthPerson *p, TrackerUser *user)
{
	TrackerVec3 sum = tracker_vec3(0, 0, 0);

	memset(user, 0, sizeof(*user));
	user->id = p->id;
	user->n_pixels = p->pixels;
	for (int j = 0; j < TRACKER_N_JOINTS; j++) {
		TrackerJoint *joint = &user->joints[j];

		joint->position = p->joints[j];
		joint->u = p->u[j];
		joint->v = p->v[j];
		joint->confidence = !p->in_view[j] ? 0.0 : p->visible[j] ? 1.0 : 0.5;
		sum = tracker_vec3_add(sum, p->joints[j]);
	}
	user->centre = tracker_vec3_scale(sum, 1.0 / TRACKER_N_JOINTS);
	for (int side = 0; side < 2; side++)
		user->hands[side] = truth_hand(p, side);
}

void
truth_to_tracker_frame(const DemoTruth *truth, guint64 frame, gint64 time_us, guint min_pixels,
                       TrackerFrame *out)
{
	out->frame = frame;
	out->time_us = time_us;
	out->n_users = 0;
	for (guint i = 0; i < truth->n_people && out->n_users < TRACKER_MAX_USERS; i++) {
		if (truth->people[i].pixels < min_pixels)
			continue;
		truth_person_to_user(&truth->people[i], &out->users[out->n_users++]);
	}
}

static guint8
truth_label(guint8 demo_label, const TrackerFrame *frame)
{
	switch (demo_label) {
	case DEMO_LABEL_FLOOR:
		return TRACKER_LABEL_FLOOR;
	case DEMO_LABEL_WALL:
	case DEMO_LABEL_PROP:
		return TRACKER_LABEL_BACKGROUND;
	default:
		break;
	}
	if (DEMO_LABEL_IS_PERSON(demo_label)) {
		for (guint k = 0; k < frame->n_users; k++) {
			if (frame->users[k].id == DEMO_LABEL_PERSON_ID(demo_label))
				return TRACKER_LABEL_USER + k;
		}
	}
	return TRACKER_LABEL_SCENE;
}

void
truth_to_labels(const DemoTruth *truth, const guint16 *mm, const TrackerFrame *frame,
                guint8 *labels)
{
	for (int i = 0; i < DEPTH_PIXELS; i++)
		labels[i] = mm[i] == 0 ? TRACKER_LABEL_NO_READING
		                       : truth_label(truth->labels[i], frame);
}
