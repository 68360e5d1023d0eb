/* The mapping engine: a frame of skeletons and a mapping in, one batch of
 * neutral messages per output out.
 *
 * Pure logic: no sockets, no clock, no liblo. Time comes in with the frame
 * (TrackerFrame.time_us), so replays and tests are deterministic. The engine
 * keeps what rules need across frames: who was in view, who has been
 * announced, what was last sent. */
#pragma once

#include <glib.h>

#include "mapping.h"
#include "message.h"
#include "tracker/tracker-types.h"
#include "tracker/tracker.h"

typedef struct _MappingEngine MappingEngine;

/**
 * mapping_engine_new:
 * An engine for @mapping, which must outlive it. With @previous (the
 * engine of the mapping this one replaces, which the caller then frees),
 * the users in view stay known, so a reload announces nobody again, they
 * keep their slots (user_ids = slot), and every rule that did not change
 * keeps its state.
 */
MappingEngine *mapping_engine_new(const Mapping *mapping, MappingEngine *previous);
void mapping_engine_free(MappingEngine *engine);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(MappingEngine, mapping_engine_free)

/**
 * mapping_engine_set_camera_pose:
 * The sensor's pose for the frames to come, from which `height` values
 * are measured; NULL, or a pose with no floor, leaves them out.
 */
void mapping_engine_set_camera_pose(MappingEngine *engine, const TrackerCameraPose *pose);

/**
 * mapping_engine_run:
 * Maps @frame. @batches holds one batch per output of the mapping, in the
 * mapping's order; each is cleared, then filled with the frame's messages
 * in rule order.
 */
void mapping_engine_run(MappingEngine *engine, const TrackerFrame *frame,
                        MessageBatch *const *batches);

/**
 * mapping_engine_run_gestures:
 * As mapping_engine_run(), with the @n_gestures events that the gesture
 * recognisers found in @frame (gesture_recognizer_process()): the rules
 * for gesture events send one message for each event of their kinds, in
 * the recognisers' order.
 */
void mapping_engine_run_gestures(MappingEngine *engine, const TrackerFrame *frame,
                                 const GestureEvent *gestures, guint n_gestures,
                                 MessageBatch *const *batches);
