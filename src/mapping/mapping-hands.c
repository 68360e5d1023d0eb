#include "mapping-hands.h"

#include <string.h>

typedef struct {
	guint id; /* 0: free */
	MappingGrip grips[2];
} Holder;

struct _MappingHands {
	Holder users[TRACKER_MAX_USERS];
	GArray *changes; /* MappingHandChange, of the last update */
};

void
mapping_hands_grip_init(MappingGrip *grip)
{
	grip->closed = FALSE;
	grip->unsure_us = -1;
}

gboolean
mapping_hands_grip_update(MappingGrip *grip, const TrackerHand *hand, gint64 now_us)
{
	if (hand->state == TRACKER_HAND_CLOSED) {
		grip->closed = TRUE;
		grip->unsure_us = -1;
	} else if (!grip->closed) {
		grip->unsure_us = -1;
	} else if (hand->state == TRACKER_HAND_OPEN) {
		mapping_hands_grip_init(grip);
	} else if (grip->unsure_us < 0) {
		grip->unsure_us = now_us;
	} else if (now_us - grip->unsure_us >= MAPPING_GRIP_RELEASE_US) {
		mapping_hands_grip_init(grip);
	}
	return grip->closed;
}

MappingHands *
mapping_hands_new(const MappingHands *previous)
{
	MappingHands *hands = g_new0(MappingHands, 1);

	if (previous != NULL)
		memcpy(hands->users, previous->users, sizeof(hands->users));
	hands->changes = g_array_new(FALSE, FALSE, sizeof(MappingHandChange));
	return hands;
}

void
mapping_hands_free(MappingHands *hands)
{
	if (hands == NULL)
		return;
	g_array_unref(hands->changes);
	g_free(hands);
}

static void
mapping_hands_change(MappingHands *hands, guint user, int side, gboolean closed)
{
	MappingHandChange change = { user, side, closed };

	g_array_append_val(hands->changes, change);
}

/* The users who left: their closed hands open. */
static void
mapping_hands_forget(MappingHands *hands, const TrackerFrame *frame)
{
	for (guint i = 0; i < TRACKER_MAX_USERS; i++) {
		Holder *holder = &hands->users[i];

		if (holder->id == 0 || tracker_frame_find_user(frame, holder->id) != NULL)
			continue;
		for (int side = 0; side < 2; side++) {
			if (holder->grips[side].closed)
				mapping_hands_change(hands, holder->id, side, FALSE);
		}
		holder->id = 0;
	}
}

static Holder *
mapping_hands_holder(MappingHands *hands, guint id)
{
	Holder *free_holder = NULL;

	for (guint i = 0; i < TRACKER_MAX_USERS; i++) {
		if (hands->users[i].id == id)
			return &hands->users[i];
		if (hands->users[i].id == 0 && free_holder == NULL)
			free_holder = &hands->users[i];
	}
	if (free_holder != NULL) {
		free_holder->id = id;
		mapping_hands_grip_init(&free_holder->grips[0]);
		mapping_hands_grip_init(&free_holder->grips[1]);
	}
	return free_holder;
}

TrackerHand
mapping_hands_seen(const TrackerUser *user, int side)
{
	TrackerHand hand = user->hands[side];

	if (user->joints[TRACKER_JOINT_LEFT_HAND + side].confidence <= 0.0 ||
	    (guint)hand.state > TRACKER_HAND_CLOSED) {
		hand.state = TRACKER_HAND_UNKNOWN;
		hand.confidence = 0.0;
	}
	return hand;
}

void
mapping_hands_update(MappingHands *hands, const TrackerFrame *frame)
{
	g_array_set_size(hands->changes, 0);
	mapping_hands_forget(hands, frame);
	for (guint u = 0; u < frame->n_users; u++) {
		const TrackerUser *user = &frame->users[u];
		Holder *holder = mapping_hands_holder(hands, user->id);

		for (int side = 0; holder != NULL && side < 2; side++) {
			TrackerHand hand = mapping_hands_seen(user, side);
			gboolean was = holder->grips[side].closed;

			if (mapping_hands_grip_update(&holder->grips[side], &hand,
			                              frame->time_us) != was)
				mapping_hands_change(hands, user->id, side, !was);
		}
	}
}

const MappingHandChange *
mapping_hands_changes(const MappingHands *hands, guint *n)
{
	*n = hands->changes->len;
	return (const MappingHandChange *)(gpointer)hands->changes->data;
}
