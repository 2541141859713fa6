import type { RouteDeclaration } from '../core/route';
import { campaignsTriggerSend } from './campaignsTriggerSend';
import { catalogItemsDelete } from './catalogItemsDelete';
import { catalogItemsPatch } from './catalogItemsPatch';
import { catalogItemsPut } from './catalogItemsPut';
import { canvasTriggerScheduleDelete } from './canvasTriggerScheduleDelete';
import { canvasTriggerScheduleUpdate } from './canvasTriggerScheduleUpdate';
import { canvasTriggerSend } from './canvasTriggerSend';
import { messagesSend } from './messagesSend';
import { subscriptionStatusSet, subscriptionStatusSetV1 } from './subscriptionStatusSet';
import { transactionalSend } from './transactionalSend';
import { usersExportIds } from './usersExportIds';
import { usersExternalIdsRename } from './usersExternalIdsRename';
import { usersIdentify } from './usersIdentify';
import { usersTrack } from './usersTrack';

/** Every API endpoint the sandbox serves. A new endpoint is one file in this folder and one line here. */
export const API_ROUTES: readonly RouteDeclaration[] = [
	usersTrack,
	subscriptionStatusSet,
	subscriptionStatusSetV1,
	usersExportIds,
	usersIdentify,
	usersExternalIdsRename,
	messagesSend,
	campaignsTriggerSend,
	canvasTriggerSend,
	transactionalSend,
	canvasTriggerScheduleUpdate,
	canvasTriggerScheduleDelete,
	catalogItemsPatch,
	catalogItemsPut,
	catalogItemsDelete,
];
