#include "truth.h"

#include <string.h>

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
