/* Marks made by hand on real depth frames, read from small CSV files:
 * where each person is (tests/data/real-rooms.csv, for the frames with
 * the room left in) and where the joints are (the real Kinect frames'
 * annotations.csv). The reading is strict: a header line naming the
 * columns, lines starting with '#' as comments, and any other line
 * that is not a whole mark an error reading "path:line: what". */
#pragma once

#include <glib.h>

#include "tracker/tracker-joint.h"
#include "tracker/tracker-vec.h"

#define MARKS_ERROR (marks_error_quark())
GQuark marks_error_quark(void);

typedef enum {
	MARKS_ERROR_PARSE, /* a line is not a mark */
} MarksError;

#define MARKS_MAX_PEOPLE 16 /* marked on one frame */

/* One person on one frame. */
typedef struct {
	char *file;         /* the frame's file name, without its folder */
	guint person;       /* from 1, unique on the frame */
	int u0, v0, u1, v1; /* the body's box in pixels, edges included */
	gboolean has_head;  /* FALSE: the head is out of view */
	int head_u, head_v; /* the pixel of the head's centre, inside the box */
} MarksPerson;

/* One joint on one frame. */
typedef struct {
	char *file; /* the frame's file name, without its folder */
	TrackerJointId joint;
	double u, v;         /* the pixel marked */
	double z_surface_mm; /* the body's surface there */
	double uncertainty_px;
} MarksJoint;

/**
 * marks_read_people:
 * The people marked in @path, in the file's order: lines
 * "file,person,u0,v0,u1,v1,head_u,head_v", the head's two fields empty
 * when it is out of view. An array of MarksPerson that frees them.
 */
GPtrArray *marks_read_people(const char *path, GError **error);

/**
 * marks_read_joints:
 * The joints marked in @path, in the file's order: lines
 * "file,joint,u,v,z_surface_mm,uncertainty_px" with the tracker's joint
 * names. An array of MarksJoint that frees them.
 */
GPtrArray *marks_read_joints(const char *path, GError **error);

/**
 * marks_people_on:
 * The people of @people (MarksPerson) marked on @file, at most
 * MARKS_MAX_PEOPLE, into @out; returns how many.
 */
guint marks_people_on(GPtrArray *people, const char *file, const MarksPerson **out);

/**
 * marks_joint_position:
 * Where @mark puts the joint's centre in camera space (mm): the pixel
 * back-projected with the Kinect's camera model, 35 mm behind the
 * surface marked.
 */
TrackerVec3 marks_joint_position(const MarksJoint *mark);

#define MARKS_JOINT_DEPTH_MM 35.0 /* a joint's centre behind the body's surface */
