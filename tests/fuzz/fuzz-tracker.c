/* Fuzz target: the tracker on arbitrary depth frames. The input, repeated
 * to fill them, makes three frames in a row; what comes out must be sane
 * whatever went in: users within the limit, distinct non-zero ids, finite
 * joints, confidences from 0 to 1. */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "base/depth.h"
#include "tracker/tracker.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void
fill_frame(const uint8_t *data, size_t size, size_t skew, guint16 *mm)
{
	for (size_t i = 0; i < DEPTH_PIXELS; i++) {
		size_t k = (2 * i + skew) % size;
		guint16 v = (guint16)(data[k] | data[(k + 1) % size] << 8);

		/* Millimetres as libfreenect delivers them: 0 or up to 10 m. */
		mm[i] = v > DEPTH_MM_MAX ? 0 : v;
	}
}

static void
check_frame(const TrackerFrame *out)
{
	g_assert_cmpuint(out->n_users, <=, TRACKER_MAX_USERS);
	for (guint u = 0; u < out->n_users; u++) {
		const TrackerUser *user = &out->users[u];

		g_assert_cmpuint(user->id, >, 0);
		for (guint k = u + 1; k < out->n_users; k++)
			g_assert_cmpuint(user->id, !=, out->users[k].id);
		for (int j = 0; j < TRACKER_N_JOINTS; j++) {
			const TrackerJoint *joint = &user->joints[j];

			g_assert_true(joint->confidence >= 0.0 && joint->confidence <= 1.0);
			if (joint->confidence > 0.0)
				g_assert_true(isfinite(joint->position.x) &&
				              isfinite(joint->position.y) &&
				              isfinite(joint->position.z) && isfinite(joint->u) &&
				              isfinite(joint->v));
		}
	}
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static Tracker *tracker;
	static guint16 *mm;
	static gint64 time_us;
	TrackerFrame out;

	if (size == 0)
		return 0;
	if (tracker == NULL) {
		tracker = tracker_new(NULL, NULL);
		mm = g_new(guint16, DEPTH_PIXELS);
	}
	tracker_reset(tracker);
	for (size_t f = 0; f < 3; f++) {
		time_us += 33333;
		fill_frame(data, size, f * 2 * 97, mm);
		g_assert_true(tracker_process(tracker, mm, f, time_us, &out, NULL));
		check_frame(&out);
	}
	return 0;
}
