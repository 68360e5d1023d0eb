/* The tracker benchmark on the real Kinect frames ($SKELBRIDGE_REAL_KINECT:
 * one person's upper body, the background cut away), each through a fresh
 * tracker. For the main user, the one with the most pixels: the seven
 * upper-body joints inside the person (score_inside), and each joint
 * marked by hand in the folder's annotations.csv found within
 * SCORE_NEAR_MM of the mark (marks_joint_position). */
#pragma once

#include <glib.h>

typedef struct {
	gboolean ran; /* FALSE: the folder is not there */
	guint frames;
	guint inside, upper; /* upper-body joints inside the person, of so many */
	guint found, marked; /* marked joints found, of so many */
} BenchReal;

/** bench_real_run: prints the figures per frame and in total, into @result. */
void bench_real_run(BenchReal *result);
