/* Whether the users a tracker reports on a real frame are the people
 * marked on it (marks.h), one to one, each skeleton on its person.
 *
 * A user is on a person when its torso and neck, and its head if it
 * reports one, each lie on the person: projected inside the person's box
 * and no more than SCORE_INSIDE_FRONT_MM before nor SCORE_INSIDE_BACK_MM
 * behind the depth surface there (score_inside). Where the person's box
 * runs off the image (it reaches the border), a joint beyond that border
 * counts as on the person, and so does a torso or neck left out: a
 * close-up's torso lies below the image. At least one of the three must
 * lie inside the image on the person. Users and people are then paired
 * one to one, as many pairs as can be. */
#pragma once

#include <glib.h>

#include "marks.h"
#include "tracker/tracker-types.h"

typedef struct {
	guint n_users, n_people;
	int person_of[TRACKER_MAX_USERS]; /* the person (index) each user is paired with, or -1 */
	int user_of[MARKS_MAX_PEOPLE];    /* the user (index) paired with each person, or -1 */
	char *why[TRACKER_MAX_USERS];     /* for a user paired with no one: why */
} RoomCheck;

/**
 * room_check_frame:
 * Pairs the users of @frame, tracked on @mm (640x480 millimetres), with
 * the @n_people people marked on it.
 */
void room_check_frame(RoomCheck *check, const guint16 *mm, const TrackerFrame *frame,
                      const MarksPerson *const *people, guint n_people);
void room_check_clear(RoomCheck *check);
G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC(RoomCheck, room_check_clear)

/** room_check_paired: how many users are paired with a person. */
guint room_check_paired(const RoomCheck *check);

/** room_check_passed: as many users as people, each on its own person. */
gboolean room_check_passed(const RoomCheck *check);

/**
 * room_check_describe:
 * One line per user (which person it is on, or why none) and per person
 * left without a user, each starting with @indent.
 */
char *room_check_describe(const RoomCheck *check, const TrackerFrame *frame,
                          const MarksPerson *const *people, const char *indent);
