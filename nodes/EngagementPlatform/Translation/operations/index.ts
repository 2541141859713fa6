import type { NodeOperation } from '../../shared/engine';
import * as getCampaignTranslations from './getCampaignTranslations';
import * as getCanvasTranslations from './getCanvasTranslations';

/** Every operation of the Translation node, in the order the operation list shows them. */
export const translationOperations: NodeOperation[] = [getCampaignTranslations, getCanvasTranslations];
