/* Finding people among the cells: drop the floor, group the rest into
 * connected surfaces, and keep the surfaces shaped like a person.
 *
 * Two neighbouring cells belong to one surface when their depths differ by
 * less than a jump that grows with the square of the distance, as the
 * sensor's depth step does. A person is a surface with a head: a rounded
 * top a head wide, above a body. Furniture (a chair's back, a box, a
 * cabinet) has a flat top and no head. Two people who touch make one
 * surface with two heads; its cells go to the head that is nearer along
 * the surface (geodesic distance). A tracked person's head that the
 * surface's outline no longer shows (someone's arm lies over it) is
 * found again where it was, if the cells are still there. A small surface in front of a person
 * and within reach of them (a hand pushed toward the sensor, seen apart
 * from its arm) joins that person. A surface without a head in view
 * continues a person tracked at its place in the previous frame. */
#pragma once

#include <glib.h>

#include "tracker-floor.h"
#include "tracker-grid.h"

#define TRACKER_SEGMENT_MAX_PEOPLE 12

typedef struct {
	gboolean found;
	TrackerVec3 centre; /* estimated centre of the head */
	double radius;      /* mm */
	double top_height;  /* height of the top above the floor (or camera) */
	gboolean hinted;    /* found where a tracked head was, not by its outline */
	/* Its top, or all of it, is above the image: centre and top are
	 * guessed from the neck and shoulders below the image's edge. */
	gboolean cut_top;
	gboolean above; /* ...all of it: the picture shows neck and shoulders */
} TrackerHead;

typedef struct {
	guint16 label; /* the person's cells carry it in TrackerSegmenter.labels */
	guint n_cells;
	guint n_pixels;     /* depth pixels behind the cells */
	double area;        /* the surface they show, mm^2 */
	TrackerVec3 centre; /* mean of the cells' points */
	int box[4];         /* the cells' bounding box: u0, v0, u1, v1 */
	TrackerHead head;
	int hint; /* the hint (tracked person) it continues, or -1 */
} TrackerPerson;

typedef struct {
	TrackerVec3 centre; /* where a tracked person was last seen */
	guint n_pixels;     /* ...and how many depth pixels they had */
	double height;      /* their height, mm */
	gboolean has_head;  /* their head was seen lately: look for it where it was */
	gboolean has_body;  /* their body was fitted: head holds where it was */
	TrackerVec3 head;   /* where their head was */
	double head_radius;
} TrackerSegmentHint;

typedef struct {
	double min_person_pixels;
	double min_head_height; /* mm above the floor, when the floor is known */
	double max_depth;       /* mm: readings stop here (the tracker's max_depth_mm) */
	guint max_people;
} TrackerSegmentParams;

typedef struct _TrackerSegmenter TrackerSegmenter;

TrackerSegmenter *tracker_segmenter_new(const TrackerGrid *grid);
void tracker_segmenter_free(TrackerSegmenter *seg);

/**
 * tracker_segmenter_run:
 * Finds the people in @grid, leaving out the floor. @hints are the people
 * tracked so far. Returns how many people were found (their cells
 * labelled 1..n).
 */
guint tracker_segmenter_run(TrackerSegmenter *seg, const TrackerGrid *grid,
                            const TrackerFloor *floor, const guint8 *structure,
                            const TrackerSegmentParams *params, const TrackerSegmentHint *hints,
                            guint n_hints);

/** tracker_segmenter_people: the people of the last run, @n of them. */
const TrackerPerson *tracker_segmenter_people(const TrackerSegmenter *seg, guint *n);

/** tracker_segmenter_labels: per cell, the person's label or 0. */
const guint16 *tracker_segmenter_labels(const TrackerSegmenter *seg);

/** tracker_segmenter_heights: per cell, the height above the floor (mm). */
const float *tracker_segmenter_heights(const TrackerSegmenter *seg);

/**
 * tracker_segmenter_cell_kind:
 * What the last run made of cell @k: TRACKER_LABEL_NO_READING, _FLOOR,
 * _BACKGROUND (a surface as big as a person, or a person's surface beyond
 * their reach, that is no one: walls, furniture), _SCENE (smaller loose
 * surfaces), or TRACKER_LABEL_USER + the index of the person in
 * tracker_segmenter_people(). @min_pixels is the smallest person.
 */
guint tracker_segmenter_cell_kind(const TrackerSegmenter *seg, const TrackerGrid *grid, int k,
                                  double min_pixels);

/**
 * tracker_segment_jump:
 * The largest depth difference (mm) between neighbouring cells of one
 * surface at depth @z.
 */
static inline double
tracker_segment_jump(double z)
{
	return 50.0 + 1.0e-5 * z * z;
}
