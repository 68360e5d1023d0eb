/* Fuzz target: the mapping parser, and the engine running whatever
 * mapping parses on a frame with two users making every gesture. */
#include <stdint.h>
#include <string.h>

#include "mapping/mapping-engine.h"
#include "mapping/mapping-parse.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void
fill_frame(TrackerFrame *frame)
{
	memset(frame, 0, sizeof(*frame));
	frame->frame = 7;
	frame->time_us = 233333;
	frame->n_users = 2;
	for (guint u = 0; u < 2; u++) {
		frame->users[u].id = u + 1;
		for (int j = 0; j < TRACKER_N_JOINTS; j++) {
			TrackerJoint *joint = &frame->users[u].joints[j];

			joint->position = tracker_vec3(100.0 * j - 700, 50.0 * j, 2000 + 300 * u);
			joint->u = 20 * j;
			joint->v = 30 * j;
			joint->confidence = (j % 3) / 2.0;
		}
	}
}

#define N_GESTURES (2 * GESTURE_N_KINDS)

static void
fill_gestures(GestureEvent *gestures)
{
	for (guint i = 0; i < N_GESTURES; i++) {
		memset(&gestures[i], 0, sizeof(gestures[i]));
		gestures[i].kind = (GestureKind)(i % GESTURE_N_KINDS);
		gestures[i].user = 1 + i / GESTURE_N_KINDS;
		gestures[i].hand = (GestureHand)(i % GESTURE_N_HANDS);
	}
}

static void
run_engine(const Mapping *mapping)
{
	g_autoptr(MappingEngine) engine = mapping_engine_new(mapping, NULL);
	g_autoptr(GPtrArray) batches =
	        g_ptr_array_new_with_free_func((GDestroyNotify)message_batch_free);
	GestureEvent gestures[N_GESTURES];
	TrackerFrame frame;

	for (guint i = 0; i < mapping->outputs->len; i++)
		g_ptr_array_add(batches, message_batch_new());
	fill_frame(&frame);
	fill_gestures(gestures);
	for (int k = 0; k < 3; k++) {
		/* Every gesture by both users on the first frame, none after. */
		mapping_engine_run_gestures(engine, &frame, gestures, k == 0 ? N_GESTURES : 0,
		                            (MessageBatch *const *)batches->pdata);
		frame.time_us += 33333;
		frame.n_users = 2 - k;
	}
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(Mapping) mapping = mapping_parse("fuzz.map", (const char *)data, size, &error);

	if (mapping != NULL)
		run_engine(mapping);
	else
		g_assert_nonnull(error);
	return 0;
}
