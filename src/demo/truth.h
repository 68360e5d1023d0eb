/* The demo scene's truth as a tracker frame: what a perfect tracker would
 * report. Lets everything downstream of the tracker (mapping, outputs,
 * examples) be driven and tested with exact, known skeletons. */
#pragma once

#include "demo-scene.h"
#include "tracker/tracker-types.h"

/**
 * truth_to_tracker_frame:
 * Fills @out with every person of @truth who shows at least @min_pixels
 * depth pixels; ids are the scene's actor ids. A joint outside the image
 * gets confidence 0, a joint hidden behind something else 0.5, a visible
 * joint 1. A hand the scene opens or closes has that state with
 * confidence 1 while it is seen (DemoTruthPerson.hand_seen); a relaxed,
 * hidden or out of view hand is unknown.
 */
void truth_to_tracker_frame(const DemoTruth *truth, guint64 frame, gint64 time_us, guint min_pixels,
                            TrackerFrame *out);

/**
 * truth_to_labels:
 * Per-pixel tracker labels from the scene's truth: people in @frame become
 * their user index, the floor floor, walls and furniture background.
 */
void truth_to_labels(const DemoTruth *truth, const guint16 *mm, const TrackerFrame *frame,
                     guint8 *labels);
